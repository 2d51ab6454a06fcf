"""triton.runtime.cache: Triton's file cache classes, for programs that derive their own cache
manager from them (Liger-Kernel's). tilevm keeps compiled kernels in its own cache
(runtime/KernelCache.h) and never calls these; they read and write files as Triton's do."""
import json
import os
import uuid
from abc import ABC, abstractmethod


class CacheManager(ABC):
    """Triton's interface of a cache of files under a key."""

    def __init__(self, key, override=False, dump=False):
        pass

    @abstractmethod
    def get_file(self, filename):
        pass

    @abstractmethod
    def put(self, data, filename, binary=True):
        pass

    @abstractmethod
    def get_group(self, filename):
        pass

    @abstractmethod
    def put_group(self, filename, group):
        pass


class FileCacheManager(CacheManager):
    """Files under knobs.cache.dir/KEY (dump_dir or override_dir when asked), each written
    whole to a temporary directory and moved into place."""

    def __init__(self, key, override=False, dump=False):
        from .. import knobs
        self.key = key
        self.lock_path = None
        base = knobs.cache.dump_dir if dump else knobs.cache.override_dir if override else knobs.cache.dir
        if not base:
            raise RuntimeError("Could not create or locate cache dir")
        self.cache_dir = os.path.join(base, key)
        if not override:
            self.lock_path = os.path.join(self.cache_dir, "lock")
            os.makedirs(self.cache_dir, exist_ok=True)

    def _make_path(self, filename):
        return os.path.join(self.cache_dir, filename)

    def has_file(self, filename):
        return os.path.exists(self._make_path(filename))

    def get_file(self, filename):
        return self._make_path(filename) if self.has_file(filename) else None

    def get_group(self, filename):
        """{child: path} of a group put_group recorded, for the children still there."""
        path = self.get_file(f"__grp__{filename}")
        if path is None:
            return None
        try:
            with open(path) as f:
                children = json.load(f).get("child_paths")
        except (OSError, ValueError, AttributeError):
            return None
        if children is None:
            return None
        return {c: p for c, p in children.items() if os.path.exists(p)}

    def put_group(self, filename, group):
        return self.put(json.dumps({"child_paths": group}), f"__grp__{filename}", binary=False)

    def put(self, data, filename, binary=True):
        binary = isinstance(data, bytes)
        if not binary:
            data = str(data)
        path = self._make_path(filename)
        temp_dir = os.path.join(self.cache_dir, f"tmp.pid_{os.getpid()}_{uuid.uuid4()}")
        os.makedirs(temp_dir, exist_ok=True)
        temp_path = os.path.join(temp_dir, filename)
        with open(temp_path, "wb" if binary else "w") as f:
            f.write(data)
        os.replace(temp_path, path)
        os.removedirs(temp_dir)
        return path


def get_cache_manager(key):
    """A FileCacheManager for `key` (a TRITON_CACHE_MANAGER class is not loaded: knobs.py)."""
    return FileCacheManager(key)

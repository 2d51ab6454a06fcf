"""setup.py - `pip install --no-build-isolation .`: CMake builds the `_tilevm` extension for the
Python running pip and the `tilevm` command, offline, with Debian's packages (docs/python.md);
setuptools installs them with the pure-Python package (python/tilevm and its `triton` stand-in);
the `tilevm` command runs the CLI kept in the package (tilevm/_bin, python/tilevm/_cli.py).

TILEVM_BUILD_DIR names the CMake build directory to use (default: build-pip/<python tag> in the
source tree); one configured already for the same Python is reused as it is."""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

SOURCE = os.path.dirname(os.path.abspath(__file__))


def cmake_version():
    text = open(os.path.join(SOURCE, "CMakeLists.txt")).read()
    return re.search(r"project\(tilevm VERSION ([0-9.]+)", text).group(1)


def configured_python(build_dir):
    """The TILEVM_PYTHON a configured build directory was made for, or None."""
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if not os.path.exists(cache):
        return None
    m = re.search(r"^TILEVM_PYTHON:FILEPATH=(.*)$", open(cache).read(), re.M)
    return m.group(1) if m else None


class CMakeBuild(build_py):
    """Builds `_tilevm` and `tilevm` with CMake, then lays out the package with them."""

    def run(self):
        tag = sysconfig.get_config_var("SOABI") or f"py{sys.version_info[0]}{sys.version_info[1]}"
        build_dir = os.path.abspath(os.environ.get("TILEVM_BUILD_DIR") or os.path.join(SOURCE, "build-pip", tag))
        python = configured_python(build_dir)
        if python is None or os.path.realpath(python) != os.path.realpath(sys.executable):
            args = ["cmake", "-S", SOURCE, "-B", build_dir, f"-DTILEVM_PYTHON={sys.executable}"]
            if python is None:
                args += ["-DCMAKE_BUILD_TYPE=Release"] + (["-G", "Ninja"] if shutil.which("ninja") else [])
            subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_tilevm", "tilevm", "tilevm_python_files"])
        super().run()
        package = os.path.join(build_dir, "python", "tilevm")
        extension = [f for f in os.listdir(package) if f.startswith("_tilevm") and f.endswith(".so")]
        if len(extension) != 1:
            raise RuntimeError(f"setup.py: expected one _tilevm extension in {package}, found {extension}")
        built = os.path.join(self.build_lib, "tilevm", extension[0])
        self.copy_file(os.path.join(package, extension[0]), built)
        cli = os.path.join(self.build_lib, "tilevm", "_bin", "tilevm")
        os.makedirs(os.path.dirname(cli), exist_ok=True)
        self.copy_file(os.path.join(build_dir, "tools", "tilevm"), cli)  # mode kept: executable
        if shutil.which("strip"):  # debug information stays in the build directory
            subprocess.check_call(["strip", "--strip-debug", built, cli])


class BinaryDistribution(Distribution):
    """The wheel holds a compiled extension: it is tagged for this Python and platform."""

    def has_ext_modules(self):
        return True


def shim_files():
    """Every file of the `triton` stand-in, relative to python/tilevm."""
    root = os.path.join(SOURCE, "python", "tilevm")
    out = []
    for d, _, files in os.walk(os.path.join(root, "_shim")):
        out += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith(".py")]
    return out


setup(
    name="tilevm",
    version=cmake_version(),
    description="Run Triton kernels on a checking CPU interpreter, or on tilevm's GPU engine",
    packages=["tilevm"],
    package_dir={"": "python"},
    package_data={"tilevm": shim_files()},
    cmdclass={"build_py": CMakeBuild},
    distclass=BinaryDistribution,
    entry_points={"console_scripts": ["tilevm = tilevm._cli:main"]},
    options={"build": {"build_base": os.path.join("build-pip", "setuptools")}},  # not CMake's build/
    python_requires=">=3.9",
)

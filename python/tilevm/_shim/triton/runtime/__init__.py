"""triton.runtime: the active driver reports the CPU (tilevm's interpreter)."""


class _Target:
    backend = "cpu"
    arch = "tilevm-interpreter"
    warp_size = 32


class _Active:
    def get_current_target(self):
        return _Target()

    def get_active_torch_device(self):
        try:
            import torch
            return torch.device("cpu")
        except ImportError:
            return "cpu"

    def get_current_device(self):
        return 0


class _Driver:
    active = _Active()


driver = _Driver()

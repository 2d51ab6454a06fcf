"""The stand-in triton.runtime.driver: the active driver's torch device is the CPU."""


class _Driver:
    @staticmethod
    def get_active_torch_device():
        return "cpu"


active = _Driver()

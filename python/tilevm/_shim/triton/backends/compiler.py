"""triton.backends.compiler: GPUTarget, the target a driver reports."""
from dataclasses import dataclass


@dataclass(frozen=True)
class GPUTarget:
    """Triton's GPUTarget: backend, arch (compute capability as an int for CUDA) and warp size."""
    backend: str
    arch: int
    warp_size: int

    def is_cuda_backend(self):
        return self.backend == "cuda"

    def is_hip_backend(self):
        return self.backend == "hip"

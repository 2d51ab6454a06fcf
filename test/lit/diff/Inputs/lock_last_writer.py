# A spin lock (atomic_cas / atomic_xchg) around a store whose value is the program id: the last
# program to take the lock decides the result, so schedules disagree by far more than any
# summation order could. diff --self must still call this a mismatch.
import triton
import triton.language as tl


@triton.jit
def last_writer(Out, Lock):
    pid = tl.program_id(0)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    tl.store(Out, pid.to(tl.float32) + 0.5)
    tl.atomic_xchg(Lock, 0)

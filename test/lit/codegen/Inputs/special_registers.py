import triton
import triton.language as tl


@triton.jit
def stamps(Out):
    # Two reads of the timer around a store, and the multiprocessor's id.
    start = tl.extra.cuda.globaltimer()
    tl.store(Out + 2, tl.extra.cuda.smid().to(tl.int64))
    tl.store(Out, start)
    tl.store(Out + 1, tl.extra.cuda.globaltimer())

"""`python3 -m tilevm --diff triton`: a Triton script runs on the real `triton` package and GPU,
and each launch is run again on tilevm's checking interpreter from copies of its inputs, every
tensor argument compared as `tilevm diff` compares buffers (docs/diff-triton.md).

  live.py      a Triton JITFunction as tilevm's launcher and source_unit see a kernel
  snapshot.py  CPU copies of a launch's tensors, views and aliases kept
  compare.py   one launch: the interpreter run from the inputs, its buffers against the GPU's
  report.py    a divergence's text and the summary table
  record.py    fixtures of launches (npz + json), and their replay without Triton
  hook.py      the hooks in real Triton's JITFunction.run and Autotuner._bench
  cli.py       the command line of --diff triton and --diff-replay
"""

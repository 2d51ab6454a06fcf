"""tutorial05_forward.py PATH/05-layer-norm.py - Triton's layer-norm tutorial, run whole and
unmodified (its checks and its backward table), then its own benchmark once more in forward mode
(the tutorial prints only backward): the same `bench_layer_norm` with args['mode'] = 'forward'.
Run it under real Triton and under `python3 -m tilevm --device cuda` in the same call."""
import os
import runpy
import sys

path = os.path.abspath(sys.argv[1])
os.chdir(os.path.dirname(path))
sys.argv = [path]
tutorial = runpy.run_path(path, run_name="__main__")
bench = tutorial["bench_layer_norm"]
bench.benchmarks.args["mode"] = "forward"
bench.benchmarks.plot_name = "layer-norm-forward"
print("forward:")
bench.run(print_data=True)

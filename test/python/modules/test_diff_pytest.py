"""Run by diff_triton_cli.py under `python3 -m tilevm --diff triton -m pytest` over the stand-in
package: a test that passes while one of its launches diverges (diff_triton_script.py's third);
the divergence's report must reach stderr past pytest's capture of it."""
import os
import runpy


def test_script_runs():
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "diff_triton_script.py"))

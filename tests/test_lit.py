"""Runs the lit + FileCheck suite under tests/filecheck from pytest, so one command runs all."""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def test_filecheck_suite():
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([str(Path(sys.executable).parent / "lit"), "-v", str(HERE / "filecheck")], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "Passed" in proc.stdout

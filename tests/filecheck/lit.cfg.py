import os

import lit.formats

config.name = "mmatom"
config.test_format = lit.formats.ShTest(preamble_commands=[])
config.suffixes = [".mlir", ".test"]
# update_checks.py regenerates CHECK lines; it is a script, not a test.
config.excludes = ["update_checks.py"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = os.environ.get("PATH", "")
config.substitutions.append(("filecheck", "filecheck"))

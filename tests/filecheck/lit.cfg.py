import os

import lit.formats

config.name = "mmatom"
config.test_format = lit.formats.ShTest(preamble_commands=[])
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = os.environ.get("PATH", "")
config.substitutions.append(("filecheck", "filecheck"))

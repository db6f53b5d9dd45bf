"""The long loops of each cubin's SASS: instructions, R2UR, uniform ops, HGMMA (cuobjdump -sass)."""
import re, subprocess, sys
for path in sys.argv[1:]:
    sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    ins = [(int(m.group(1), 16), m.group(2).strip()) for m in re.finditer(r"/\*([0-9a-f]{4})\*/\s+(.*?);", sass)]
    for a, t in ins:
        m = re.search(r"BRA\s+0x([0-9a-f]+)", t)
        if m and 0x400 < a - int(m.group(1), 16) < 0x3000:
            lo = int(m.group(1), 16)
            ops = [re.sub(r"^@!?U?P[T0-9]+\s+", "", x).split()[0].split(".")[0] for b, x in ins if lo <= b <= a]
            if ops.count("HGMMA") >= 5:
                print(path.split("/")[-1], hex(lo), len(ops), "R2UR", ops.count("R2UR"), "U*",
                      sum(o.startswith("U") for o in ops), "HGMMA", ops.count("HGMMA"))

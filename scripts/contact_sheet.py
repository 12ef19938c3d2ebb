"""One PNG of many: the renders the conformance suite made, as thumbnails in a grid,
so a person can look at what the catalog does. Run with Blender's Python (bpy):

    python scripts/contact_sheet.py OUT.png IN1.png IN2.png ...
    blender -b --factory-startup --python scripts/contact_sheet.py -- OUT.png IN1.png ...

Beside OUT.png, OUT.txt lists the cell of each input (row, column, file name).
"""

import os
import sys

import bpy
import numpy as np

CELL_W, CELL_H, GAP, COLUMNS = 192, 144, 8, 8


def thumbnail(path):
    img = bpy.data.images.load(path, check_existing=False)
    w, h = img.size
    if w == 0 or h == 0:
        bpy.data.images.remove(img)
        return None
    scale = min(CELL_W / w, CELL_H / h)
    tw, th = max(1, int(w * scale)), max(1, int(h * scale))
    img.scale(tw, th)
    px = np.empty(tw * th * 4, dtype=np.float32)
    img.pixels.foreach_get(px)
    bpy.data.images.remove(img)
    return px.reshape(th, tw, 4)


def main(out, inputs):
    rows = (len(inputs) + COLUMNS - 1) // COLUMNS
    width, height = COLUMNS * (CELL_W + GAP) + GAP, rows * (CELL_H + GAP) + GAP
    sheet = np.full((height, width, 4), (0.12, 0.12, 0.13, 1.0), dtype=np.float32)
    lines = []
    for i, path in enumerate(inputs):
        row, col = divmod(i, COLUMNS)
        px = thumbnail(path)
        if px is None:
            continue
        th, tw = px.shape[:2]
        # Blender's pixel rows run bottom-up: row 0 of the sheet is its bottom.
        y0 = height - (row + 1) * (CELL_H + GAP) + (CELL_H - th) // 2
        x0 = GAP + col * (CELL_W + GAP) + (CELL_W - tw) // 2
        sheet[y0:y0 + th, x0:x0 + tw] = px
        lines.append("%d\t%d\t%s" % (row + 1, col + 1, os.path.basename(path)))
    img = bpy.data.images.new("contact-sheet", width, height, alpha=True)
    img.pixels.foreach_set(sheet.ravel())
    img.filepath_raw = out
    img.file_format = "PNG"
    img.save()
    with open(os.path.splitext(out)[0] + ".txt", "w") as f:
        f.write("row\tcolumn\trender\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    # Under `blender -b --python contact_sheet.py -- OUT IN...` the arguments follow "--".
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    main(args[0], args[1:])

"""What the hardware has, as data: chips, the atom catalogue, fragment and TMEM layouts, SMEM and
instruction descriptors, number formats, and the plans by which threads reach fragments and SMEM tiles.
Pure Python over the layout algebra: no IR here."""

"""IR utilities the passes share: the undo journal, walk order, cloning, id-keyed tables and the
adaptations of xDSL (ir/xdsl_adapt.py: the one place that knows xDSL's internals)."""

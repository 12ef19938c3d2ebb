"""Where the scene's compositor lives: the one place that knows the two APIs.

- Blender 5.0 and newer: a node group the scene names (`scene.compositing_node_group`),
  a `node_groups` datablock whose Group Output is the result; the compositor runs while
  the scene names one and `render.use_compositing` is on.
- Blender 4.5 LTS: a tree embedded in the scene (`scene.node_tree`), used while
  `scene.use_nodes` is on, whose Composite node is the result.

Every command that reads or builds the compositor asks here; nothing else tests the
version for it.
"""

# The node a graph's result leaves through, per API.
GROUP_OUTPUT = "NodeGroupOutput"
COMPOSITE_OUTPUT = "CompositorNodeComposite"
OUTPUT_TYPES = (GROUP_OUTPUT, COMPOSITE_OUTPUT)


def uses_node_group(sc):
    """True from Blender 5.0 (the compositor is a node group), False in 4.5 LTS."""
    return hasattr(sc, "compositing_node_group")


def tree(sc):
    """The tree the scene composites with, or None (4.5: only while `use_nodes` is on)."""
    if uses_node_group(sc):
        return sc.compositing_node_group
    return sc.node_tree if sc.use_nodes else None


def enabled(sc):
    """Whether a render runs the compositor."""
    return tree(sc) is not None and sc.render.use_compositing


def output_type(sc):
    """The output node type a new graph of this Blender ends in."""
    return GROUP_OUTPUT if uses_node_group(sc) else COMPOSITE_OUTPUT


def use_embedded_tree(sc):
    """4.5 LTS: switch the scene's own tree on; returns (tree, fresh) where `fresh` means
    Blender made it just now (its default nodes are still in it)."""
    fresh = sc.node_tree is None
    sc.use_nodes = True
    return sc.node_tree, fresh


def stop_embedded_tree(sc):
    sc.use_nodes = False

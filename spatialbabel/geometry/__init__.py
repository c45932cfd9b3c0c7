"""Geometry of scenes, in the hub because several stages share it: exact bounds (``bounds``),
ray casts against the primitives, occlusion and views, surface distances, directions and frames,
the scene changes SpaceCast applies, footprints, the camera frustum and resting-on relations.
The modules import one another and the hub's scene, vocabulary and frames, never a stage."""

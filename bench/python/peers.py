"""Who runs each benchmarked op (../shared/BENCH.md): one registry, PEERS, from op to the builder of
its {library: factory} (peer_helpers.py says what a factory is); the factories live by family in
peers_intensity.py, peers_geometry.py, peers_mix.py and peers_auto.py.
"""

from peers_auto import POLICIES, _auto_peers
from peers_geometry import GEOMETRY, _geometry_peers, _per_sample_decode_peers, _per_sample_peers, _pipeline_peers
from peers_intensity import CLASS_PEERS, POINT_PEERS, _blur_peers, _color_peers, _flip_peers, _normalize_peers
from peers_mix import MIXES, _mix_peers

import u8aug
from peer_helpers import LIBRARIES, _optional, is_ours, is_peer  # noqa: F401  (run.py reads them from here)

PEERS = {
    "hflip": lambda: _flip_peers(u8aug.hflip, "RandomHorizontalFlip", "RandomHorizontalFlip", "HorizontalFlip", 1),
    "vflip": lambda: _flip_peers(u8aug.vflip, "RandomVerticalFlip", "RandomVerticalFlip", "VerticalFlip", 0),
    **POINT_PEERS,
    "equalize": lambda: _color_peers("equalize"),
    "normalize": _normalize_peers,
    "grayscale": lambda: _color_peers("grayscale"),
    "color_jiggle": lambda: _color_peers("color_jiggle"),
    "color_jitter": lambda: _color_peers("color_jitter"),
    **{op: (lambda op=op: _geometry_peers(op)) for op in GEOMETRY},
    "gaussian_blur_5": lambda: _blur_peers(5),
    "gaussian_blur_23": lambda: _blur_peers(23),
    **CLASS_PEERS,
    **{op: (lambda op=op: _mix_peers(op)) for op in MIXES},
    **{op: (lambda op=op: _auto_peers(op)) for op in POLICIES},
    "pipeline": _pipeline_peers,
    "pipeline_simclr": lambda: _pipeline_peers(simclr=True),
    "per_sample": _per_sample_peers,
    "per_sample_decode": _per_sample_decode_peers,
    "ragged": lambda: _per_sample_peers(ragged=True),
}


def peers_for(op: str) -> dict:
    if op not in PEERS:
        raise KeyError(f"no benchmark peers defined for op {op!r}")
    return PEERS[op]()


OPS = list(PEERS)
# The pipeline rows are fed B=32 of 256x256 (the standard pipeline's input), whatever the shapes;
# the per-sample and ragged rows make their own images of varied sizes, as many as the batch has.
PIPELINE_SHAPE = (32, 3, 256, 256)
PIPELINES = {"pipeline", "pipeline_simclr", "per_sample", "per_sample_decode", "ragged"}
# Ops whose work depends on the content: fed real photos, not random bytes.
CONTENT_DEPENDENT = {"equalize", "rand_augment", "trivial_augment"}
# Bytes read plus written per image element (uint8 in; uint8 out, or float32 out for normalize).
BYTES_PER_ELEMENT = {"normalize": 5}
# Ops whose speed is bounded by memory: also reported as GB/s and as a fraction of memcpy.
MEMORY_BOUND = {"hflip", "vflip", *POINT_PEERS, "normalize"}

"""Who runs each benchmarked op, and how each library is fed (../shared/BENCH.md).

Every entry maps a library name to a factory: factory(x) -> zero-argument callable that runs one
augmentation of the whole batch x (uint8, (B, C, H, W), on the benchmark device), parameter sampling
included, through that library's own random-augmentation API. Factories return None where a
library cannot run on the device.
"""

import importlib

import numpy as np
import torch

import u8aug

LIBRARIES = [
    "u8aug",
    "u8aug compiled",
    "kornia float",
    "kornia float compiled",
    "torchvision v2",
    "albumentations",
    "OpenCV",
    "memcpy",
]


def _hwc_list(x):
    """The batch as albumentations and OpenCV take it: a list of uint8 HWC numpy arrays."""
    return [np.ascontiguousarray(img.permute(1, 2, 0).cpu().numpy()) for img in x]


def _kornia(cls, compiled, **kwargs):
    def factory(x):
        aug = cls(**kwargs).to(x.device)
        xf = x.float() / 255  # kornia's float path is fed float: conversion is outside the timing
        fn = torch.compile(aug) if compiled else aug
        return lambda: fn(xf)

    return factory


def _compiled(fn):
    def factory(x):
        c = torch.compile(fn, fullgraph=True)
        return lambda: c(x)

    return factory


def _per_image(make):
    def factory(x):
        if x.device.type != "cpu":
            return None
        images = _hwc_list(x)
        one = make()
        return lambda: [one(img) for img in images]

    return factory


def _memcpy(x):
    return lambda: x.clone()


def _optional(module: str):
    """A peer library, or None where it is not installed (the GPU machine has no albumentations)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _flip_peers(u8aug_fn, kornia_name, tv_name, albu_name, cv2_code):
    K = _optional("kornia.augmentation")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")

    def albu():
        t = getattr(A, albu_name)(p=1.0)
        return lambda img: t(image=img)["image"]

    def torchvision(x):
        t = getattr(v2, tv_name)(p=1.0)
        return lambda: t(x)

    peers = {
        "u8aug": lambda x: (lambda: u8aug_fn(x)),
        "u8aug compiled": _compiled(u8aug_fn),
        "kornia float": K and _kornia(getattr(K, kornia_name), False, p=1.0),
        "kornia float compiled": K and _kornia(getattr(K, kornia_name), True, p=1.0),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "OpenCV": cv2 and _per_image(lambda: (lambda img: cv2.flip(img, cv2_code))),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def _torchvision(make, v2):
    def factory(x):
        t = make(v2)
        return lambda: t(x)

    return factory


def _point_peers(ours, kornia_make, tv_make, albu_make, numpy_table):
    """A pointwise op. ours(x, B) runs u8aug with freshly drawn per-sample parameters; the OpenCV row
    draws one parameter per image, builds its 256-entry table with numpy and calls cv2.LUT."""
    K = _optional("kornia.augmentation")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")

    def kornia(compiled):
        def factory(x):
            aug = kornia_make(K).to(x.device)
            xf = x.float() / 255
            fn = torch.compile(aug) if compiled else aug
            return lambda: fn(xf)

        return factory

    def albu():
        t = albu_make(A)
        return lambda img: t(image=img)["image"]

    def opencv():
        rng = np.random.default_rng(0)
        values = np.arange(256, dtype=np.float32) / np.float32(255)
        return lambda img: cv2.LUT(img, numpy_table(values, rng))

    def compiled_ours(x):
        c = torch.compile(lambda x: ours(x, x.shape[0] if x.dim() == 4 else 1), fullgraph=True)
        return lambda: c(x)

    peers = {
        "u8aug": lambda x: (lambda: ours(x, x.shape[0])),
        "u8aug compiled": compiled_ours,
        "kornia float": K and kornia_make and kornia(False),
        "kornia float compiled": K and kornia_make and kornia(True),
        "torchvision v2": v2 and tv_make and _torchvision(tv_make, v2),
        "albumentations": A and albu_make and _per_image(albu),
        "OpenCV": cv2 and _per_image(opencv),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def _uniform(x, b, lo, hi):
    return torch.empty(b, device=x.device).uniform_(lo, hi)


def _to_u8_table(y):
    return np.clip(np.round(y * 255), 0, 255).astype(np.uint8)


POINT_PEERS = {
    # RandomBrightness(0.8, 1.2) adds factor - 1; albumentations' brightness is additive too.
    "adjust_brightness": lambda: _point_peers(
        lambda x, b: u8aug.adjust_brightness(x, _uniform(x, b, -0.2, 0.2)),
        lambda K: K.RandomBrightness((0.8, 1.2), p=1.0),
        None,
        lambda A: A.RandomBrightnessContrast(brightness_limit=0.2, contrast_limit=0.0, p=1.0),
        lambda v, r: _to_u8_table(np.clip(v + np.float32(r.uniform(-0.2, 0.2)), 0, 1)),
    ),
    # ColorJitter's brightness is multiplicative in kornia, torchvision and albumentations alike.
    "adjust_brightness_accumulative": lambda: _point_peers(
        lambda x, b: u8aug.adjust_brightness_accumulative(x, _uniform(x, b, 0.8, 1.2)),
        lambda K: K.ColorJitter(brightness=0.2, p=1.0),
        lambda v2: v2.ColorJitter(brightness=0.2),
        lambda A: A.ColorJitter(brightness=0.2, contrast=0, saturation=0, hue=0, p=1.0),
        lambda v, r: _to_u8_table(np.clip(v * np.float32(r.uniform(0.8, 1.2)), 0, 1)),
    ),
    "adjust_contrast": lambda: _point_peers(
        lambda x, b: u8aug.adjust_contrast(x, _uniform(x, b, 0.8, 1.2)),
        lambda K: K.RandomContrast((0.8, 1.2), p=1.0),
        None,  # torchvision's contrast blends with the image mean: a different op
        None,
        lambda v, r: _to_u8_table(np.clip(v * np.float32(r.uniform(0.8, 1.2)), 0, 1)),
    ),
    "adjust_gamma": lambda: _point_peers(
        lambda x, b: u8aug.adjust_gamma(x, _uniform(x, b, 0.8, 1.2), torch.ones(1, device=x.device)),
        lambda K: K.RandomGamma((0.8, 1.2), p=1.0),
        None,
        lambda A: A.RandomGamma(gamma_limit=(80, 120), p=1.0),
        lambda v, r: _to_u8_table(np.power(v, np.float32(r.uniform(0.8, 1.2)))),
    ),
    "solarize": lambda: _point_peers(
        lambda x, b: u8aug.solarize(x, _uniform(x, b, 0.4, 0.6), _uniform(x, b, -0.1, 0.1)),
        lambda K: K.RandomSolarize(0.1, 0.1, p=1.0),
        lambda v2: v2.RandomSolarize(threshold=128, p=1.0),
        lambda A: A.Solarize(threshold_range=(0.4, 0.6), p=1.0),
        lambda v, r: _to_u8_table(np.where(v < np.float32(r.uniform(0.4, 0.6)), v, 1 - v)),
    ),
    "posterize": lambda: _point_peers(
        lambda x, b: u8aug.posterize(x, torch.randint(1, 8, (b,), device=x.device)),
        lambda K: K.RandomPosterize((1, 8), p=1.0),
        lambda v2: v2.RandomPosterize(bits=4, p=1.0),
        lambda A: A.Posterize(num_bits=(1, 7), p=1.0),
        lambda v, r: (np.arange(256) & (0xFF << (8 - int(r.integers(1, 8)))) & 0xFF).astype(np.uint8),
    ),
    "invert": lambda: _point_peers(
        lambda x, b: u8aug.invert(x),
        lambda K: K.RandomInvert(p=1.0),
        lambda v2: v2.RandomInvert(p=1.0),
        lambda A: A.InvertImg(p=1.0),
        lambda v, r: (255 - np.arange(256)).astype(np.uint8),
    ),
}


def _normalize_peers():
    K = _optional("kornia.augmentation")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)

    def ours(x):
        m, s = torch.tensor(mean, device=x.device), torch.tensor(std, device=x.device)
        return lambda: u8aug.normalize(x, m, s)

    def ours_compiled(x):
        m, s = torch.tensor(mean, device=x.device), torch.tensor(std, device=x.device)
        c = torch.compile(u8aug.normalize, fullgraph=True)
        return lambda: c(x, m, s)

    def kornia(compiled):
        def factory(x):
            aug = K.Normalize(mean=torch.tensor(mean), std=torch.tensor(std), p=1.0)
            xf = x.float() / 255
            fn = torch.compile(aug) if compiled else aug
            return lambda: fn(xf)

        return factory

    def torchvision(x):
        t = v2.Compose([v2.ToDtype(torch.float32, scale=True), v2.Normalize(mean, std)])
        return lambda: t(x)

    def albu():
        t = A.Normalize(mean=mean, std=std, max_pixel_value=255.0, p=1.0)
        return lambda img: t(image=img)["image"]

    peers = {
        "u8aug": ours,
        "u8aug compiled": ours_compiled,
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def _color_peers(op):
    """ColorJiggle / ColorJitter(0.4, 0.4, 0.4, 0.1), RandomGrayscale(p=1) and RandomEqualize(p=1)
    against each library's own class."""
    K = _optional("kornia.augmentation")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")

    def jiggle(x):
        b = x.shape[0]
        f = lambda lo, hi: torch.empty(b, device=x.device).uniform_(lo, hi)  # noqa: E731
        fused = u8aug.color_jiggle if op == "color_jiggle" else u8aug.color_jitter
        return fused(x, f(0.6, 1.4), f(0.6, 1.4), f(0.6, 1.4), f(-0.1, 0.1), torch.randperm(4, device=x.device))

    ours = {"color_jiggle": jiggle, "color_jitter": jiggle, "grayscale": u8aug.grayscale, "equalize": u8aug.equalize}[
        op
    ]

    def kornia_class():
        return {
            "color_jiggle": lambda: K.ColorJiggle(0.4, 0.4, 0.4, 0.1, p=1.0),
            "color_jitter": lambda: K.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),
            "grayscale": lambda: K.RandomGrayscale(p=1.0),
            "equalize": lambda: K.RandomEqualize(p=1.0),
        }[op]()

    def kornia(compiled):
        def factory(x):
            aug = kornia_class().to(x.device)
            xf = x.float() / 255
            fn = torch.compile(aug) if compiled else aug
            return lambda: fn(xf)

        return factory

    def torchvision(x):
        t = {
            "color_jiggle": lambda: v2.ColorJitter(0.4, 0.4, 0.4, 0.1),
            "color_jitter": lambda: v2.ColorJitter(0.4, 0.4, 0.4, 0.1),
            "grayscale": lambda: v2.RandomGrayscale(p=1.0),
            "equalize": lambda: v2.RandomEqualize(p=1.0),
        }[op]()
        return lambda: t(x)

    def albu():
        t = {
            "color_jiggle": lambda: A.ColorJitter(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1, p=1.0),
            "color_jitter": lambda: A.ColorJitter(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1, p=1.0),
            "grayscale": lambda: A.ToGray(num_output_channels=3, p=1.0),
            "equalize": lambda: A.Equalize(by_channels=True, p=1.0),
        }[op]()
        return lambda img: t(image=img)["image"]

    def opencv():
        if op == "grayscale":  # grey, then back to 3 channels as RandomGrayscale returns
            return lambda img: cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        return lambda img: cv2.merge([cv2.equalizeHist(c) for c in cv2.split(img)])

    peers = {
        "u8aug": lambda x: (lambda: ours(x)),
        "u8aug compiled": _compiled(ours),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "OpenCV": cv2 and op in ("grayscale", "equalize") and _per_image(opencv),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


# Geometry: each library's own random class. Outputs keep the input size except Resize (to 1.25x)
# and CenterCrop (to 0.75x). torchvision v2 draws one set of parameters per call (the whole batch),
# the others one per image.
GEOMETRY = {
    # op: (kornia / u8aug.kornia class, its arguments; None: sized from the input)
    "affine": ("RandomAffine", dict(degrees=30, translate=(0.1, 0.1), scale=(0.8, 1.2), shear=10, p=1.0)),
    "rotation": ("RandomRotation", dict(degrees=30.0, p=1.0)),
    "perspective": ("RandomPerspective", dict(distortion_scale=0.5, p=1.0)),
    "resized_crop": ("RandomResizedCrop", None),
    "resize": ("Resize", None),
    "center_crop": ("CenterCrop", None),
}


def _geometry_peers(op):
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")
    name, kwargs = GEOMETRY[op]

    def sized(x):
        h, w = x.shape[-2:]
        if op == "resized_crop":
            return dict(size=(h, w), p=1.0)
        if op == "resize":
            return dict(size=(h * 5 // 4, w * 5 // 4))
        return dict(size=(h * 3 // 4, w * 3 // 4))

    def args(x):
        return kwargs if kwargs is not None else sized(x)

    def ours(compiled):
        def factory(x):
            aug = getattr(UK, name)(**args(x))
            fn = torch.compile(aug, fullgraph=True) if compiled else aug
            return lambda: fn(x)

        return factory

    def kornia(compiled):
        def factory(x):
            aug = getattr(K, name)(**args(x)).to(x.device)
            xf = x.float() / 255
            fn = torch.compile(aug) if compiled else aug
            return lambda: fn(xf)

        return factory

    def torchvision(x):
        h, w = x.shape[-2:]
        t = {
            "affine": lambda: v2.RandomAffine(
                30, (0.1, 0.1), (0.8, 1.2), 10, interpolation=v2.InterpolationMode.BILINEAR
            ),
            "rotation": lambda: v2.RandomRotation(30, interpolation=v2.InterpolationMode.BILINEAR),
            "perspective": lambda: v2.RandomPerspective(0.5, p=1.0),
            "resized_crop": lambda: v2.RandomResizedCrop((h, w), antialias=False),
            "resize": lambda: v2.Resize((h * 5 // 4, w * 5 // 4), antialias=False),
            "center_crop": lambda: v2.CenterCrop((h * 3 // 4, w * 3 // 4)),
        }[op]()
        return lambda: t(x)

    def albu_factory(x):
        h, w = x.shape[-2:]
        t = {
            "affine": lambda: A.Affine(
                rotate=(-30, 30), translate_percent=(-0.1, 0.1), scale=(0.8, 1.2), shear=(-10, 10), p=1.0
            ),
            "rotation": lambda: A.Rotate(limit=30, p=1.0),
            "perspective": lambda: A.Perspective(scale=(0.05, 0.125), p=1.0),
            "resized_crop": lambda: A.RandomResizedCrop(size=(h, w), p=1.0),
            "resize": lambda: A.Resize(h * 5 // 4, w * 5 // 4),
            "center_crop": lambda: A.CenterCrop(h * 3 // 4, w * 3 // 4),
        }[op]()
        return _per_image(lambda: (lambda img: t(image=img)["image"]))(x)

    def opencv_factory(x):
        h, w = x.shape[-2:]
        rng = np.random.default_rng(0)

        def affine(img):
            M = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-30, 30)), float(rng.uniform(0.8, 1.2)))
            return cv2.warpAffine(img, M, (w, h), flags=cv2.INTER_LINEAR)

        def perspective(img):
            src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
            dst = src + rng.uniform(-0.125, 0.125, (4, 2)).astype(np.float32) * np.float32([w, h])
            return cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_LINEAR)

        def resized_crop(img):
            ch, cw = int(rng.integers(h // 3, h)), int(rng.integers(w // 3, w))
            y, x0 = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
            return cv2.resize(img[y : y + ch, x0 : x0 + cw], (w, h), interpolation=cv2.INTER_LINEAR)

        fn = {
            "affine": affine,
            "rotation": affine,
            "perspective": perspective,
            "resized_crop": resized_crop,
            "resize": lambda img: cv2.resize(img, (w * 5 // 4, h * 5 // 4), interpolation=cv2.INTER_LINEAR),
            "center_crop": lambda img: np.ascontiguousarray(
                img[h // 8 : h // 8 + h * 3 // 4, w // 8 : w // 8 + w * 3 // 4]
            ),
        }[op]
        return _per_image(lambda: fn)(x)

    peers = {
        "u8aug": UK and ours(False),
        "u8aug compiled": UK and ours(True),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and albu_factory,
        "OpenCV": cv2 and opencv_factory,
        "memcpy": _memcpy,
    }
    return {name_: f for name_, f in peers.items() if f}


def _pipeline_peers():
    """RandomResizedCrop(224) -> horizontal flip -> ColorJitter(0.4, 0.4, 0.4, 0.1) ->
    RandomGrayscale(p=0.2) -> Normalize, each library's own classes (u8aug: u8aug.kornia's classes in
    its AugmentationSequential, kornia's subclass). Fed 256x256 (PIPELINE_SHAPE)."""
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)

    def kornia_pipeline(mod, device):
        # each library's own container: u8aug.kornia.AugmentationSequential compiles on every torch
        return mod.AugmentationSequential(
            mod.RandomResizedCrop((224, 224)),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),
            mod.RandomGrayscale(p=0.2),
            mod.Normalize(mean=torch.tensor(mean), std=torch.tensor(std)),
        ).to(device)

    def ours(compiled):
        def factory(x):
            aug = kornia_pipeline(UK, x.device)
            fn = torch.compile(aug, fullgraph=True) if compiled else aug
            return lambda: fn(x)

        return factory

    def kornia(compiled):
        def factory(x):
            aug = kornia_pipeline(K, x.device)
            xf = x.float() / 255
            fn = torch.compile(aug) if compiled else aug
            return lambda: fn(xf)

        return factory

    def torchvision(x):
        t = v2.Compose(
            [
                v2.RandomResizedCrop((224, 224), antialias=False),
                v2.RandomHorizontalFlip(),
                v2.ColorJitter(0.4, 0.4, 0.4, 0.1),
                v2.RandomGrayscale(p=0.2),
                v2.ToDtype(torch.float32, scale=True),
                v2.Normalize(mean, std),
            ]
        )
        return lambda: t(x)

    def albu():
        t = A.Compose(
            [
                A.RandomResizedCrop(size=(224, 224)),
                A.HorizontalFlip(),
                A.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),
                A.ToGray(num_output_channels=3, p=0.2),
                A.Normalize(mean=mean, std=std),
            ]
        )
        return lambda img: t(image=img)["image"]

    peers = {
        "u8aug": UK and K and ours(False),
        "u8aug compiled": UK and K and ours(True),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def peers_for(op: str) -> dict:
    if op == "hflip":
        return _flip_peers(u8aug.hflip, "RandomHorizontalFlip", "RandomHorizontalFlip", "HorizontalFlip", 1)
    if op == "vflip":
        return _flip_peers(u8aug.vflip, "RandomVerticalFlip", "RandomVerticalFlip", "VerticalFlip", 0)
    if op in POINT_PEERS:
        return POINT_PEERS[op]()
    if op == "normalize":
        return _normalize_peers()
    if op in ("color_jiggle", "color_jitter", "grayscale", "equalize"):
        return _color_peers(op)
    if op == "pipeline":
        return _pipeline_peers()
    if op in GEOMETRY:
        return _geometry_peers(op)
    raise KeyError(f"no benchmark peers defined for op {op!r}")


OPS = [
    "hflip",
    "vflip",
    *POINT_PEERS,
    "equalize",
    "normalize",
    "grayscale",
    "color_jiggle",
    "color_jitter",
    *GEOMETRY,
    "pipeline",
]
# The pipeline row is fed B=32 of 256x256 (issue 5's standard pipeline), whatever the shapes.
PIPELINE_SHAPE = (32, 3, 256, 256)
# Ops whose work depends on the content: fed real photos, not random bytes.
CONTENT_DEPENDENT = {"equalize"}
# Bytes read plus written per image element (uint8 in; uint8 out, or float32 out for normalize).
BYTES_PER_ELEMENT = {"normalize": 5}
# Ops whose speed is bounded by memory: also reported as GB/s and as a fraction of memcpy.
MEMORY_BOUND = {"hflip", "vflip", *POINT_PEERS, "normalize"}

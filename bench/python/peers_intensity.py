"""Benchmark peers of the flips, the pointwise ops, normalize and the colour ops (see peer_helpers.py)."""

import numpy as np
import torch

import u8aug
from peer_helpers import _compiled, _kornia, _memcpy, _optional, _per_image


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

    def jiggle(x, fidelity="exact"):
        b = x.shape[0]
        f = lambda lo, hi: torch.empty(b, device=x.device).uniform_(lo, hi)  # noqa: E731
        fused = u8aug.color_jiggle if op == "color_jiggle" else u8aug.color_jitter
        order = torch.randperm(4, device=x.device)
        return fused(x, f(0.6, 1.4), f(0.6, 1.4), f(0.6, 1.4), f(-0.1, 0.1), order, fidelity=fidelity)

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
        "u8aug fast": op in ("color_jiggle", "color_jitter") and (lambda x: (lambda: jiggle(x, "fast"))),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "OpenCV": cv2 and op in ("grayscale", "equalize") and _per_image(opencv),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def _blur_peers(kernel_size):
    """RandomGaussianBlur(kernel_size, sigma in (0.1, 2.0), p=1): every library's own random blur
    (a sigma drawn per image), u8aug as the u8aug.kornia class (kornia's draws and kernels)."""
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")
    k = kernel_size

    def ours(compiled, fidelity="exact"):
        def factory(x):
            aug = UK.RandomGaussianBlur(k, (0.1, 2.0), p=1.0, fidelity=fidelity)
            fn = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS) if compiled else aug
            return lambda: fn(x)

        return factory

    def albu():
        t = A.GaussianBlur(blur_limit=(k, k), sigma_limit=(0.1, 2.0), p=1.0)
        return lambda img: t(image=img)["image"]

    def opencv():
        rng = np.random.default_rng(0)
        return lambda img: cv2.GaussianBlur(img, (k, k), float(rng.uniform(0.1, 2.0)))

    peers = {
        "u8aug": UK and K and ours(False),
        "u8aug compiled": UK and K and ours(True),
        "u8aug fast": UK and K and ours(False, "fast"),
        "kornia float": K and _kornia(K.RandomGaussianBlur, False, kernel_size=k, sigma=(0.1, 2.0), p=1.0),
        "kornia float compiled": K and _kornia(K.RandomGaussianBlur, True, kernel_size=k, sigma=(0.1, 2.0), p=1.0),
        "torchvision v2": v2 and _torchvision(lambda v2: v2.GaussianBlur(k, (0.1, 2.0)), v2),
        "albumentations": A and _per_image(albu),
        "OpenCV": cv2 and _per_image(opencv),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def _class_peers(name, ours_kwargs, tv_make=None, albu_make=None, opencv_make=None, fast=False):
    """A u8aug.kornia class against kornia's (float), torchvision v2's, albumentations' and OpenCV's
    own random transform of the same kind, each drawing its own parameters per call; `fast`: a row
    for the class's fidelity="fast" tier too."""
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")

    def ours(compiled, fidelity="exact"):
        def factory(x):
            aug = getattr(UK, name)(**ours_kwargs, **({"fidelity": "fast"} if fidelity == "fast" else {}))
            fn = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS) if compiled else aug
            return lambda: fn(x)

        return factory

    def albu():
        t = albu_make(A)
        return lambda img: t(image=img)["image"]

    peers = {
        "u8aug": UK and K and ours(False),
        "u8aug compiled": UK and K and ours(True),
        "u8aug fast": fast and UK and K and ours(False, "fast"),
        "kornia float": K and _kornia(getattr(K, name), False, **ours_kwargs),
        "kornia float compiled": K and _kornia(getattr(K, name), True, **ours_kwargs),
        "torchvision v2": v2 and tv_make and _torchvision(tv_make, v2),
        "albumentations": A and albu_make and _per_image(albu),
        "OpenCV": cv2 and opencv_make and _per_image(lambda: opencv_make(cv2)),
        "memcpy": _memcpy,
    }
    return {n: f for n, f in peers.items() if f}


def _opencv_sharpen(cv2):
    """kornia's sharpness by OpenCV: the same 3x3 smoothing kernel, then the blend with the image."""
    kernel = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / 13
    rng = np.random.default_rng(0)

    def sharpen(img):
        smooth = cv2.filter2D(img, -1, kernel)
        f = float(rng.uniform(0.0, 1.0))
        return cv2.addWeighted(img, f, smooth, 1.0 - f, 0)

    return sharpen


def _opencv_clahe(cv2):
    """cv2.createCLAHE (clip 40, 8 x 8 tiles) on each channel of an HWC image."""
    clahe = cv2.createCLAHE(clipLimit=40.0, tileGridSize=(8, 8))

    def run(img):
        return np.stack([clahe.apply(np.ascontiguousarray(img[:, :, c])) for c in range(img.shape[2])], axis=2)

    return run


def _opencv_jpeg(cv2):
    """cv2.imencode(".jpg", quality 50) and cv2.imdecode of an RGB HWC image (BGR order does not change the
    work)."""
    params = [int(cv2.IMWRITE_JPEG_QUALITY), 50]

    def run(img):
        ok, buf = cv2.imencode(".jpg", img, params)
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    return run


CLASS_PEERS = {
    "median_blur_3": lambda: _class_peers(
        "RandomMedianBlur",
        dict(kernel_size=(3, 3), p=1.0),
        albu_make=lambda A: A.MedianBlur(blur_limit=(3, 3), p=1.0),
        opencv_make=lambda cv2: (lambda img: cv2.medianBlur(img, 3)),
    ),
    "erasing": lambda: _class_peers(
        "RandomErasing",
        dict(scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0.0, p=1.0),
        tv_make=lambda v2: v2.RandomErasing(p=1.0, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0),
        albu_make=lambda A: A.Erasing(scale=(0.02, 0.33), ratio=(0.3, 3.3), fill=0, p=1.0),
    ),
    "sharpness": lambda: _class_peers(
        "RandomSharpness",
        dict(sharpness=1.0, p=1.0),
        tv_make=lambda v2: v2.RandomAdjustSharpness(sharpness_factor=0.5, p=1.0),
        albu_make=lambda A: A.Sharpen(alpha=(0.2, 0.5), lightness=(0.5, 1.0), p=1.0),
        opencv_make=lambda cv2: _opencv_sharpen(cv2),
    ),
    "box_blur_5": lambda: _class_peers(
        "RandomBoxBlur",
        dict(kernel_size=(5, 5), p=1.0),
        albu_make=lambda A: A.Blur(blur_limit=(5, 5), p=1.0),
        opencv_make=lambda cv2: (lambda img: cv2.blur(img, (5, 5))),
        fast=True,
    ),
    # a shift of up to a tenth of a turn, as ColorJitter's hue 0.1; the peers' ColorJitter with hue alone
    "hue": lambda: _class_peers(
        "RandomHue",
        dict(hue=(-0.1, 0.1), p=1.0),
        tv_make=lambda v2: v2.ColorJitter(hue=0.1),
        albu_make=lambda A: A.ColorJitter(brightness=0, contrast=0, saturation=0, hue=0.1, p=1.0),
        fast=True,
    ),
    "auto_contrast": lambda: _class_peers(
        "RandomAutoContrast",
        dict(p=1.0),
        tv_make=lambda v2: v2.RandomAutocontrast(p=1.0),
        albu_make=lambda A: A.AutoContrast(p=1.0),
    ),
    # kornia's defaults (a 63-tap smoothing of the drawn noise); the others' own defaults
    "elastic": lambda: _class_peers(
        "RandomElasticTransform",
        dict(p=1.0),
        tv_make=lambda v2: v2.ElasticTransform(alpha=50.0, sigma=5.0),
        albu_make=lambda A: A.ElasticTransform(alpha=50.0, sigma=5.0, p=1.0),
    ),
    # kornia's defaults; albumentations' rain without its blur and darkening (kornia has neither)
    "rain": lambda: _class_peers(
        "RandomRain",
        dict(p=1.0),
        albu_make=lambda A: A.RandomRain(
            slant_range=(-5, 5), drop_length=20, drop_width=1, blur_value=1, brightness_coefficient=1.0, p=1.0
        ),
    ),
    "snow": lambda: _class_peers(
        "RandomSnow",
        dict(p=1.0),
        albu_make=lambda A: A.RandomSnow(snow_point_range=(0.5, 0.5), brightness_coeff=2.0, p=1.0),
    ),
    # kornia's defaults (clip 40, 8 x 8 tiles); OpenCV's CLAHE with the same limit on each channel (its
    # limit means what kornia's does: clip * tile pixels / 256); albumentations' CLAHE equalises the
    # lightness of an RGB image in LAB, a different operation, with the same tiles
    "clahe": lambda: _class_peers(
        "RandomClahe",
        dict(clip_limit=(40.0, 40.0), grid_size=(8, 8), p=1.0),
        albu_make=lambda A: A.CLAHE(clip_limit=(4.0, 4.0), tile_grid_size=(8, 8), p=1.0),
        opencv_make=lambda cv2: _opencv_clahe(cv2),
    ),
    # kornia's default quality (50); albumentations' ImageCompression and OpenCV's imencode/imdecode
    # run libjpeg at quality 50: a real codec (entropy coding, its own integer DCT and rounding), the
    # same kind of image change
    "jpeg": lambda: _class_peers(
        "RandomJPEG",
        dict(jpeg_quality=50.0, p=1.0),
        tv_make=lambda v2: v2.JPEG(quality=50),
        albu_make=lambda A: A.ImageCompression(quality_range=(50, 50), p=1.0),
        opencv_make=lambda cv2: _opencv_jpeg(cv2),
    ),
    "plasma_brightness": lambda: _class_peers(
        "RandomPlasmaBrightness",
        dict(p=1.0),
        albu_make=lambda A: A.PlasmaBrightnessContrast(contrast_range=(0.0, 0.0), p=1.0),
    ),
    "plasma_contrast": lambda: _class_peers(
        "RandomPlasmaContrast",
        dict(p=1.0),
        albu_make=lambda A: A.PlasmaBrightnessContrast(brightness_range=(0.0, 0.0), p=1.0),
    ),
    "plasma_shadow": lambda: _class_peers(
        "RandomPlasmaShadow",
        dict(p=1.0),
        albu_make=lambda A: A.PlasmaShadow(p=1.0),
    ),
    # kornia's and albumentations' defaults: 1-6% of the pixels, 40-60% of them salt
    "salt_and_pepper": lambda: _class_peers(
        "RandomSaltAndPepperNoise",
        dict(p=1.0),
        albu_make=lambda A: A.SaltAndPepper(amount=(0.01, 0.06), salt_vs_pepper=(0.4, 0.6), p=1.0),
    ),
    "gaussian_noise": lambda: _class_peers(
        "RandomGaussianNoise",
        dict(mean=0.0, std=0.1, p=1.0),
        albu_make=lambda A: A.GaussNoise(std_range=(0.1, 0.1), p=1.0),
    ),
}

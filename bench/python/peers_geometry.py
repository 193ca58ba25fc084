"""Benchmark peers of the geometric ops and the standard pipeline (see peer_helpers.py)."""

import numpy as np
import torch

import u8aug
from peer_helpers import _memcpy, _optional, _per_image

# Geometry: each library's own random class. Outputs keep the input size except Resize (to 1.25x)
# and CenterCrop (to 0.75x). torchvision v2 draws one set of parameters per call (the whole batch),
# the others one per image.
GEOMETRY = {
    # op: (kornia / u8aug.kornia class, its arguments; None: sized from the input)
    "affine": ("RandomAffine", dict(degrees=30, translate=(0.1, 0.1), scale=(0.8, 1.2), shear=10, p=1.0)),
    "rotation": ("RandomRotation", dict(degrees=30.0, p=1.0)),
    "perspective": ("RandomPerspective", dict(distortion_scale=0.5, p=1.0)),
    "resized_crop": ("RandomResizedCrop", None),
    "resized_crop_bicubic": ("RandomResizedCrop", None),  # DINO's crops
    "resize": ("Resize", None),
    "resize_antialias": ("Resize", None),  # a 2x shrink, antialiased (peers: their own antialiasing)
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
        if op == "resized_crop_bicubic":
            return dict(size=(h, w), resample="bicubic", p=1.0)
        if op == "resize":
            return dict(size=(h * 5 // 4, w * 5 // 4))
        if op == "resize_antialias":
            return dict(size=(h // 2, w // 2), antialias=True)
        return dict(size=(h * 3 // 4, w * 3 // 4))

    def args(x):
        return kwargs if kwargs is not None else sized(x)

    def ours(compiled, fidelity="exact"):
        def factory(x):
            extra = {"fidelity": fidelity} if fidelity != "exact" else {}
            aug = getattr(UK, name)(**args(x), **extra)
            fn = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS) if compiled else aug
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
            "resized_crop_bicubic": lambda: v2.RandomResizedCrop(
                (h, w), interpolation=v2.InterpolationMode.BICUBIC, antialias=False
            ),
            "resize": lambda: v2.Resize((h * 5 // 4, w * 5 // 4), antialias=False),
            "resize_antialias": lambda: v2.Resize((h // 2, w // 2), antialias=True),
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
            "resized_crop_bicubic": lambda: A.RandomResizedCrop(size=(h, w), interpolation=cv2.INTER_CUBIC, p=1.0),
            "resize": lambda: A.Resize(h * 5 // 4, w * 5 // 4),
            "resize_antialias": lambda: A.Resize(h // 2, w // 2, interpolation=cv2.INTER_AREA),
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

        def resized_crop(img, interpolation=cv2.INTER_LINEAR):
            ch, cw = int(rng.integers(h // 3, h)), int(rng.integers(w // 3, w))
            y, x0 = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
            return cv2.resize(img[y : y + ch, x0 : x0 + cw], (w, h), interpolation=interpolation)

        fn = {
            "affine": affine,
            "rotation": affine,
            "perspective": perspective,
            "resized_crop": resized_crop,
            "resized_crop_bicubic": lambda img: resized_crop(img, cv2.INTER_CUBIC),
            "resize": lambda img: cv2.resize(img, (w * 5 // 4, h * 5 // 4), interpolation=cv2.INTER_LINEAR),
            "resize_antialias": lambda img: cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA),
            "center_crop": lambda img: np.ascontiguousarray(
                img[h // 8 : h // 8 + h * 3 // 4, w // 8 : w // 8 + w * 3 // 4]
            ),
        }[op]
        return _per_image(lambda: fn)(x)

    def kernels_alone(fidelity):
        # the resampler alone on the whole batch, from one set of kornia's draws (crops)
        def factory(x):
            aug = getattr(UK, name)(**args(x))
            h, w = x.shape[-2:]
            if op == "resize":
                return lambda: u8aug.resize(x, (h * 5 // 4, w * 5 // 4), "bilinear", False, fidelity)
            boxes = aug.forward_parameters(x.shape)["src"].float()
            mode = "bicubic" if op == "resized_crop_bicubic" else "bilinear"
            return lambda: u8aug.crop_and_resize(x, boxes, (h, w), mode, True, fidelity)

        return factory

    resamplers = ("resized_crop", "resized_crop_bicubic", "resize")
    peers = {
        "u8aug": UK and ours(False),
        "u8aug compiled": UK and ours(True),
        "u8aug fast": UK and op not in ("center_crop", "resize_antialias") and ours(False, "fast"),
        "u8aug kernels alone": UK and op in resamplers and kernels_alone("exact"),
        "u8aug fast kernels alone": UK and op in resamplers and kernels_alone("fast"),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and albu_factory,
        "OpenCV": cv2 and opencv_factory,
        "memcpy": _memcpy,
    }
    return {name_: f for name_, f in peers.items() if f}


def _pipeline_peers(simclr=False):
    """RandomResizedCrop(224) -> horizontal flip -> ColorJitter(0.4, 0.4, 0.4, 0.1) ->
    RandomGrayscale(p=0.2) -> Normalize, each library's own classes (u8aug: u8aug.kornia's classes in
    its AugmentationSequential, kornia's subclass). Fed 256x256 (PIPELINE_SHAPE). simclr: SimCLR's
    recipe, the same with ColorJitter p=0.8, then RandomGaussianBlur(23, sigma (0.1, 2.0), p=0.5)
    and RandomSolarize(p=0.2) before Normalize."""
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)

    def kornia_pipeline(mod, device, fidelity="exact"):
        # each library's own container: u8aug.kornia.AugmentationSequential compiles on every torch
        tier = {"fidelity": fidelity} if fidelity != "exact" else {}
        extra = [mod.RandomGaussianBlur(23, (0.1, 2.0), p=0.5, **tier), mod.RandomSolarize(p=0.2)] if simclr else []
        return mod.AugmentationSequential(
            mod.RandomResizedCrop((224, 224), **tier),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8 if simclr else 1.0, **tier),
            mod.RandomGrayscale(p=0.2),
            *extra,
            mod.Normalize(mean=torch.tensor(mean), std=torch.tensor(std)),
        ).to(device)

    def ours(compiled, fidelity="exact"):
        def factory(x):
            aug = kornia_pipeline(UK, x.device, fidelity)
            fn = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS) if compiled else aug
            return lambda: fn(x)

        return factory

    def kernels_alone(fidelity):
        # the sum of the pipeline's kernels: each u8aug op on the whole batch in turn, from one set of
        # kornia's draws (what the container's time is measured against: its non-kernel share)
        def factory(x):
            aug = kornia_pipeline(UK, x.device)
            p = [item.data for item in aug.forward_parameters(x.shape)]
            boxes, jitter = p[0]["src"].float(), p[2]
            factors = [
                jitter[k].float() for k in ("brightness_factor", "contrast_factor", "saturation_factor", "hue_factor")
            ]
            gray = p[3]["batch_prob"] > 0.5
            m, s = torch.tensor(mean), torch.tensor(std)

            def run():
                y = u8aug.crop_and_resize(x, boxes, (224, 224), "bilinear", True, fidelity)
                y = u8aug.hflip(y)
                y = u8aug.color_jitter(y, *factors, jitter["order"], fidelity=fidelity)
                y = u8aug.select_samples(gray, u8aug.grayscale(y), y)
                return u8aug.normalize(y, m, s)

            return run

        return factory

    def kornia(compiled):
        def factory(x):
            aug = kornia_pipeline(K, x.device)
            xf = x.float() / 255
            fn = torch.compile(aug) if compiled else aug
            return lambda: fn(xf)

        return factory

    def torchvision(x):
        jitter = v2.ColorJitter(0.4, 0.4, 0.4, 0.1)
        extra = [v2.RandomApply([v2.GaussianBlur(23, (0.1, 2.0))], p=0.5), v2.RandomSolarize(128, p=0.2)]
        t = v2.Compose(
            [
                v2.RandomResizedCrop((224, 224), antialias=False),
                v2.RandomHorizontalFlip(),
                v2.RandomApply([jitter], p=0.8) if simclr else jitter,
                v2.RandomGrayscale(p=0.2),
                *(extra if simclr else []),
                v2.ToDtype(torch.float32, scale=True),
                v2.Normalize(mean, std),
            ]
        )
        return lambda: t(x)

    def albu():
        extra = [A.GaussianBlur(blur_limit=(23, 23), sigma_limit=(0.1, 2.0), p=0.5), A.Solarize(p=0.2)]
        t = A.Compose(
            [
                A.RandomResizedCrop(size=(224, 224)),
                A.HorizontalFlip(),
                A.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8 if simclr else 1.0),
                A.ToGray(num_output_channels=3, p=0.2),
                *(extra if simclr else []),
                A.Normalize(mean=mean, std=std),
            ]
        )
        return lambda img: t(image=img)["image"]

    peers = {
        "u8aug": UK and K and ours(False),
        "u8aug compiled": UK and K and ours(True),
        "u8aug fast": UK and K and ours(False, "fast"),
        "u8aug fast compiled": UK and K and ours(True, "fast"),
        "u8aug kernels alone": UK and K and not simclr and kernels_alone("exact"),
        "u8aug fast kernels alone": UK and K and not simclr and kernels_alone("fast"),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


# The per-sample row's images: ImageNet-like sizes from 333x500 to 640x480, one (C, H, W) image a call.
PER_SAMPLE_SIZES = [(333, 500), (375, 500), (500, 375), (480, 640), (640, 480), (500, 500), (427, 640), (512, 384)]
RAGGED_STACKED = (484, 484)


def _per_sample_peers(ragged=False):
    """The standard recipe (RandomResizedCrop(224) -> horizontal flip -> ColorJitter(0.4, 0.4, 0.4,
    0.1) -> Normalize) the way DataLoader workers run it: one image a call, images of varied sizes
    (PER_SAMPLE_SIZES in turn, as many as the batch has), parameter draws included. u8aug and kornia
    take a (C, H, W) tensor, torchvision v2 a uint8 (C, H, W) tensor, albumentations an HWC array.
    ``ragged``: u8aug takes the whole list of images in one call (a ragged batch, one (B, 3, 224,
    224) batch out) and, beside it, the same recipe on a stacked batch of one size (RAGGED_STACKED,
    about the list's mean area); the peers still go image by image."""
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)

    def images(x):
        g = torch.Generator().manual_seed(0)
        sizes = [PER_SAMPLE_SIZES[i % len(PER_SAMPLE_SIZES)] for i in range(x.shape[0])]
        return [torch.randint(0, 256, (3, h, w), dtype=torch.uint8, generator=g) for h, w in sizes]

    def recipe(mod, fidelity="exact"):
        tier = {"fidelity": fidelity} if fidelity != "exact" else {}
        return mod.AugmentationSequential(
            mod.RandomResizedCrop((224, 224), **tier),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1, **tier),
            mod.Normalize(mean=torch.tensor(mean), std=torch.tensor(std)),
        )

    def ours(compiled, fidelity="exact"):
        def factory(x):
            if x.device.type != "cpu":
                return None
            aug = recipe(UK, fidelity)
            if compiled:
                aug = torch.compile(aug, fullgraph=True, dynamic=True, options=UK.COMPILE_OPTIONS)
            batch = images(x)
            return lambda: [aug(img) for img in batch]

        return factory

    def ours_list(stacked, fidelity="exact"):
        def factory(x):
            if x.device.type != "cpu":
                return None
            aug = recipe(UK, fidelity)
            if stacked:
                g = torch.Generator().manual_seed(0)
                batch = torch.randint(0, 256, (x.shape[0], 3, *RAGGED_STACKED), dtype=torch.uint8, generator=g)
            else:
                batch = images(x)
            return lambda: aug(batch)

        return factory

    def kornia(x):
        if x.device.type != "cpu":
            return None
        aug, batch = recipe(K), [img.float() / 255 for img in images(x)]
        return lambda: [aug(img) for img in batch]

    def torchvision(x):
        if x.device.type != "cpu":
            return None
        t = v2.Compose(
            [
                v2.RandomResizedCrop((224, 224), antialias=False),
                v2.RandomHorizontalFlip(),
                v2.ColorJitter(0.4, 0.4, 0.4, 0.1),
                v2.ToDtype(torch.float32, scale=True),
                v2.Normalize(mean, std),
            ]
        )
        batch = images(x)
        return lambda: [t(img) for img in batch]

    def albu(x):
        if x.device.type != "cpu":
            return None
        t = A.Compose(
            [
                A.RandomResizedCrop(size=(224, 224)),
                A.HorizontalFlip(),
                A.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),  # albumentations' default p is 0.5; kornia's 1.0
                A.Normalize(mean=mean, std=std),
            ]
        )
        batch = [np.ascontiguousarray(img.permute(1, 2, 0).numpy()) for img in images(x)]
        return lambda: [t(image=img)["image"] for img in batch]

    if ragged:
        mine = {
            "u8aug": UK and K and ours_list(False),
            "u8aug fast": UK and K and ours_list(False, "fast"),
            "u8aug stacked batch": UK and K and ours_list(True),
        }
    else:
        mine = {
            "u8aug": UK and K and ours(False),
            "u8aug compiled": UK and K and ours(True),
            "u8aug fast": UK and K and ours(False, "fast"),
            "u8aug fast compiled": UK and K and ours(True, "fast"),
        }
    peers = {
        **mine,
        "kornia float": K and kornia,
        "torchvision v2": v2 and torchvision,
        "albumentations": A and albu,
    }
    return {name: f for name, f in peers.items() if f}


def _per_sample_decode_peers():
    """The per_sample row with JPEG bytes in, as a DataLoader worker starts from a file: u8aug
    decodes with torchvision's decode_jpeg (uint8 (C, H, W), RGB) and runs the recipe; albumentations
    decodes with OpenCV's imdecode and converts BGR to RGB, as its examples read files. The photos
    (scikit-image's astronaut, coffee and chelsea, resized to PER_SAMPLE_SIZES) are encoded once, by
    OpenCV at quality 90; each side's decode alone is timed beside it for decode's share."""
    UK = _optional("u8aug.kornia")
    K = _optional("kornia.augmentation")
    A = _optional("albumentations")
    cv2 = _optional("cv2")
    io = _optional("torchvision.io")
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    if cv2 is None:
        return {}

    def encoded(x):
        from skimage import data

        photos = [getattr(data, n)() for n in ("astronaut", "coffee", "chelsea")]
        out = []
        for i in range(x.shape[0]):
            h, w = PER_SAMPLE_SIZES[i % len(PER_SAMPLE_SIZES)]
            rgb = cv2.resize(photos[i % len(photos)], (w, h), interpolation=cv2.INTER_AREA)
            ok, jpeg = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            out.append(jpeg.tobytes())
        return out

    def torch_bytes(x):
        return [torch.frombuffer(bytearray(b), dtype=torch.uint8) for b in encoded(x)]

    def ours(fidelity="exact"):
        def factory(x):
            if x.device.type != "cpu":
                return None
            tier = {"fidelity": fidelity} if fidelity != "exact" else {}
            aug = UK.AugmentationSequential(
                UK.RandomResizedCrop((224, 224), **tier),
                UK.RandomHorizontalFlip(),
                UK.ColorJitter(0.4, 0.4, 0.4, 0.1, **tier),
                UK.Normalize(mean=torch.tensor(mean), std=torch.tensor(std)),
            )
            files = torch_bytes(x)
            return lambda: [aug(io.decode_jpeg(f)) for f in files]

        return factory

    def decode_alone(x):
        files = torch_bytes(x)
        return lambda: [io.decode_jpeg(f) for f in files]

    def imdecode(x):
        files = [np.frombuffer(b, dtype=np.uint8) for b in encoded(x)]
        return lambda: [cv2.cvtColor(cv2.imdecode(f, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB) for f in files]

    def albu(x):
        t = A.Compose(
            [
                A.RandomResizedCrop(size=(224, 224)),
                A.HorizontalFlip(),
                A.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),
                A.Normalize(mean=mean, std=std),
            ]
        )
        files = [np.frombuffer(b, dtype=np.uint8) for b in encoded(x)]
        decode = lambda f: cv2.cvtColor(cv2.imdecode(f, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)  # noqa: E731
        return lambda: [t(image=decode(f))["image"] for f in files]

    peers = {
        "u8aug": UK and K and io and ours(),
        "u8aug fast": UK and K and io and ours("fast"),
        "albumentations": A and albu,
        "torchvision decode_jpeg alone": io and decode_alone,
        "OpenCV imdecode alone": imdecode,
    }
    return {name: f for name, f in peers.items() if f}

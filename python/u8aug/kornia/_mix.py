"""The uint8 drop-ins of kornia's batch mixes, RandomMixUpV2, RandomCutMixV2 and RandomJigsaw.

kornia's mix base records the image dtype for its label handlers with ``DType.get``, which has no
uint8, and its float-only dtype check runs first; so for a uint8 image these classes run their own
forward: kornia's own parameter generator (the same draws in the same order), u8aug's ``mix_up`` or
``paste_boxes`` on the bytes, and kornia's label arithmetic in float32 (what kornia computes for
any image dtype other than float64). Every sample's result is computed and the gate selects with
``torch.where``, never with a Python branch on a tensor, so ``aug(images, labels)`` compiles with
``fullgraph=True`` (kornia's own float classes read the gate and the dtype back to Python). A float
image runs kornia's own forward unchanged.
"""

from typing import List, Optional, Union

import kornia.augmentation as K
import torch
from kornia.augmentation.utils import _transform_input
from kornia.augmentation.utils.helpers import _transform_output_shape
from kornia.constants import DataKey

from .. import ops


def _register_dirichlet_fake() -> None:
    # kornia draws CutMix's cut sizes from torch's Beta distribution, whose sampler
    # (aten::_sample_dirichlet) has no fake kernel in torch 2.11 or 2.15, so no graph can hold it:
    # its fake gives the shape (a draw has its concentration's shape) and compiled code runs torch's
    # own kernel, with eager's random stream
    if not torch._C._dispatch_has_kernel_for_dispatch_key("aten::_sample_dirichlet", "Meta"):
        torch.library.register_fake("aten::_sample_dirichlet")(lambda c, generator=None: torch.empty_like(c))


_register_dirichlet_fake()


def _paired(labels: torch.Tensor, pairs: torch.Tensor) -> torch.Tensor:
    # kornia's labels.index_select(0, pairs) for its 1-D labels, as a gather: inductor's randperm
    # pattern (torch 2.11) fails on randperm(B) followed by an index with no slice between
    return torch.gather(labels, 0, pairs)


class _Uint8Mix:
    _UINT8_KEYS = (DataKey.INPUT, DataKey.CLASS)  # (kornia's mixes have no other handler either)
    _UINT8_KEY_NAMES = "'input' and 'class'"
    # kept as self._params only where no graph is meant to hold the forward (README: a compiled
    # forward that stores its draws let inductor reorder them)
    _KEEP_PARAMS = False

    def forward(
        self,
        *input: torch.Tensor,
        params: Optional[dict] = None,
        data_keys: Optional[List[Union[str, int, DataKey]]] = None,
    ):
        keys = self.data_keys if data_keys is None else [DataKey.get(k) for k in data_keys]
        if DataKey.INPUT not in keys or input[keys.index(DataKey.INPUT)].dtype != torch.uint8:
            return self._kornia_forward(*input, params=params, data_keys=data_keys)
        for key in keys:
            if key not in self._UINT8_KEYS:
                raise NotImplementedError(
                    f"u8aug.kornia.{type(self).__name__}: uint8 images take the data keys {self._UINT8_KEY_NAMES}, "
                    f"got {key.name.lower()!r}"
                )
            self._validate_data_key(key)
        image = input[keys.index(DataKey.INPUT)]
        batch = _transform_input(image)  # (H, W) / (C, H, W) -> (B, C, H, W), no dtype change
        if params is None:
            params = self.forward_parameters(batch.shape)
        if self._KEEP_PARAMS:
            self._params = params
        applied = torch.atleast_1d(params["batch_prob"] > 0.5).to(batch.device)
        outputs = []
        for key, value in zip(keys, input):
            if key == DataKey.INPUT:
                out = self._mix_bytes(batch, params, applied)
                outputs.append(_transform_output_shape(out, image.shape) if self.keepdim else out)
            else:
                outputs.append(self._mix_other(key, value, params, applied))
        return outputs[0] if len(outputs) == 1 else outputs

    def _mix_other(self, key, value, params, applied):
        return self._mix_labels(value, params, applied)

    def __repr__(self) -> str:
        return f"u8aug.kornia.{super().__repr__()}"


class RandomMixUpV2(_Uint8Mix, K.RandomMixUpV2):
    """kornia.augmentation.RandomMixUpV2 that also takes uint8 images: u8aug's ``mix_up`` blends
    each sample with its pair in kornia's float32 arithmetic (exact); labels as kornia returns them,
    (B, 3) float32 rows (label, paired label, lambda)."""

    _kornia_forward = K.RandomMixUpV2.forward  # the float path (and install(): kornia's own, kept)

    def _mix_bytes(self, x, params, applied):
        lam = params["mixup_lambdas"].to(device=x.device, dtype=torch.float32).reshape(-1)
        lam = torch.where(applied, lam, torch.zeros_like(lam))  # lambda 0: the sample unchanged
        pairs = params["mixup_pairs"].to(device=x.device, dtype=torch.int64).reshape(-1)
        return ops.mix_up(x, pairs, lam)

    def _mix_labels(self, labels, params, applied):
        pairs = params["mixup_pairs"].to(labels.device)
        f32 = dict(device=labels.device, dtype=torch.float32)
        lam = params["mixup_lambdas"].to(**f32).reshape(-1)
        own = labels.to(**f32)
        mixed = torch.stack([own, _paired(labels, pairs).to(**f32), lam], -1)
        kept = torch.stack([own, own, torch.zeros_like(lam)], -1)
        return torch.where(applied.to(labels.device)[:, None], mixed, kept)


class RandomCutMixV2(_Uint8Mix, K.RandomCutMixV2):
    """kornia.augmentation.RandomCutMixV2 that also takes uint8 images: u8aug's ``paste_boxes``
    copies each round's box from its paired sample (exact); labels as kornia returns them,
    (num_mix, B, 3) float32 rows (label, paired label, lambda)."""

    _kornia_forward = K.RandomCutMixV2.forward  # the float path (and install(): kornia's own, kept)

    def _mix_bytes(self, x, params, applied):
        pairs = params["mix_pairs"].to(device=x.device, dtype=torch.int64)
        # a skipped sample pastes from itself; kornia's boxes are bbox_generator's vertices
        own = torch.arange(x.shape[0], device=x.device).expand_as(pairs)
        sources = torch.where(applied[None, :], pairs, own).contiguous()
        corners = params["crop_src"].to(device=x.device, dtype=torch.float32)
        boxes = torch.stack([corners[..., 0, 0], corners[..., 0, 1], corners[..., 2, 0], corners[..., 2, 1]], -1)
        return ops.paste_boxes(x, sources, boxes.reshape(pairs.shape[0], x.shape[0], 4).contiguous())

    def _mix_labels(self, labels, params, applied):
        from kornia.geometry.bbox import infer_bbox_shape

        height, width = params["image_shape"]
        f32 = dict(device=labels.device, dtype=torch.float32)
        pairs, crops = params["mix_pairs"].to(labels.device), params["crop_src"]
        # kornia's per-round label rows, every round at once (the same elementwise float32 ops)
        w, h = infer_bbox_shape(crops.reshape(-1, 4, 2))
        lam = (w.to(torch.float32) * h.to(torch.float32) / (width * height)).reshape(pairs.shape)
        lam = (1 - lam if self.use_correct_lambda else lam).to(**f32)
        own = labels.to(**f32).expand(pairs.shape)
        paired = torch.gather(labels.expand(pairs.shape), 1, pairs).to(**f32)
        mixed = torch.stack([own, paired, lam], -1)
        kept = torch.stack([own, own, torch.zeros_like(lam)], -1)
        return torch.where(applied.to(labels.device)[None, :, None], mixed, kept)


class RandomJigsaw(_Uint8Mix, K.RandomJigsaw):
    """kornia.augmentation.RandomJigsaw that also takes uint8 images: kornia's own permutation of
    the pieces (pure indexing, so its bytes are kornia's on any dtype), then u8aug's per-sample
    select for the gate."""

    _kornia_forward = K.RandomJigsaw.forward  # the float path (and install(): kornia's own, kept)

    def _mix_bytes(self, x, params, applied):
        h, w = x.shape[-2:]
        if h % self.flags["grid"][0] or w % self.flags["grid"][1]:  # kornia's own check and message
            raise RuntimeError(f"Input height and width {(h, w)} must be divisible by grid {self.flags['grid']}.")
        out = K.RandomJigsaw.apply_transform(self, x, params, self.flags)
        out = out.contiguous(memory_format=torch.channels_last) if ops._channels_last(x) else out.contiguous()
        take = applied.expand(x.shape[0]).contiguous()
        return ops.select_samples(take, out, x)


class RandomMosaic(_Uint8Mix, K.RandomMosaic):
    """kornia.augmentation.RandomMosaic that also takes uint8 images: kornia's own draws and its own
    composition and slice crop (concatenations, a zero pad and slices: pure copies, so its bytes are
    kornia's on any dtype), and kornia's pad for the skipped samples; boxes through kornia's own
    handlers (they never read the image). kornia's slice crop reads the drawn boxes back
    to the host, so no single graph holds it (kornia's float class neither)."""

    _kornia_forward = K.RandomMosaic.forward  # the float path (and install(): kornia's own, kept)

    _UINT8_KEYS = (DataKey.INPUT, DataKey.BBOX, DataKey.BBOX_XYXY, DataKey.BBOX_XYWH)
    _UINT8_KEY_NAMES = "'input', 'bbox', 'bbox_xyxy' and 'bbox_xywh'"
    _KEEP_PARAMS = True

    def _mix_bytes(self, x, params, applied):
        if self.flags["cropping_mode"] != "slice":
            raise NotImplementedError(
                "u8aug.kornia.RandomMosaic: uint8 images need cropping_mode='slice' (kornia's default)"
            )
        out = K.RandomMosaic.apply_transform(self, x, params, self.flags)
        kept = K.RandomMosaic.apply_non_transform(self, x, params, self.flags)
        return torch.where(applied.to(x.device)[:, None, None, None], out, kept)

    def _mix_other(self, key, value, params, applied):
        from kornia.augmentation._2d.mix.base import _export_boxes
        from kornia.geometry.boxes import Boxes

        mode = {DataKey.BBOX: "vertices", DataKey.BBOX_XYXY: "xyxy", DataKey.BBOX_XYWH: "xywh"}[key]
        boxes = self.transform_boxes(Boxes.from_tensor(value, mode=mode, validate_boxes=False), params, self.flags)
        return _export_boxes(boxes, mode, value)


class RandomTransplantation(K.RandomTransplantation):
    """kornia.augmentation.RandomTransplantation that also takes uint8 images: kornia's own draws,
    selection and copies (``torch.where`` of acceptor and donor pixels, ``index_put``), which move
    bytes as they are, so the result is kornia's on any dtype; masks as kornia returns them. kornia's
    forward rejects non-float images before those copies, so uint8 runs the same steps here. The
    labels and pixels are chosen on the host (kornia's design): no single graph holds them."""

    _kornia_forward = K.RandomTransplantation.forward  # the float path (and install(): kornia's own, kept)

    def forward(self, *input, params=None, data_keys=None, **kwargs):
        keys = self.data_keys if data_keys is None else [DataKey.get(k) for k in data_keys]
        if DataKey.INPUT not in keys or input[keys.index(DataKey.INPUT)].dtype.is_floating_point:
            return self._kornia_forward(*input, params=params, data_keys=data_keys, **kwargs)
        if params is None:
            self._check_mask_given(input, keys)
            params = self.forward_parameters(input[keys.index(DataKey.MASK)].shape)
        if any(k not in params for k in ("acceptor_indices", "donor_indices", "selection")):
            params = {**params, **self.params_from_input(*input, data_keys=keys, params=params)}
        self._params = params
        outputs = []
        for key, value in zip(keys, input):
            if key not in (DataKey.INPUT, DataKey.MASK):
                raise NotImplementedError(
                    f"u8aug.kornia.RandomTransplantation: takes the data keys 'input' and 'mask', got {key.name.lower()!r}"
                )
            at = params["acceptor_indices"].to(value.device)
            acceptor, donor = value[at], value[params["donor_indices"].to(value.device)]
            if key == DataKey.INPUT:
                moved = self.transform_input(acceptor, donor, params["selection"])
                base = self.apply_non_transform(value, params, self.flags)
            else:
                moved = self.transform_mask(acceptor, donor, params["selection"])
                base = self.apply_non_transform_mask(value, params, self.flags)
            outputs.append(base.index_put((at,), self.apply_non_transform_mask(moved, params, self.flags)))
        return outputs[0] if len(outputs) == 1 else outputs


# kornia's class name -> its uint8 drop-in, for install()
MIX_DROPINS = {
    c.__name__: c for c in (RandomMixUpV2, RandomCutMixV2, RandomJigsaw, RandomMosaic, RandomTransplantation)
}

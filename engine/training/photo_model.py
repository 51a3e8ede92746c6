"""The photo restoration network: a small residual network on a half-resolution view of the photo.

The photo (RGB in [0, 1]) is folded 2x2 into channels (pixel unshuffle), so every convolution runs on a quarter
of the pixels; four residual blocks, two of them dilated, see about 30 pixels around each point (enough for
JPEG's 8 px blocks and the blur of a photo enlarged 4x); the result is unfolded back and added to the photo, so
the network learns the damage, not the picture. The last convolution starts at zero: an untrained network returns
its input.
"""
import torch
from torch import nn


def conv(cin, cout, dilation=1):
    return nn.Conv2d(cin, cout, 3, padding=dilation, dilation=dilation)


class Block(nn.Module):
    """Two 3x3 convolutions with a residual connection."""

    def __init__(self, c, dilation=1):
        super().__init__()
        self.a = conv(c, c, dilation)
        self.b = conv(c, c)
        self.act = nn.LeakyReLU(0.1, inplace=True)

    def forward(self, x):
        return x + self.b(self.act(self.a(x)))


class PhotoNet(nn.Module):
    # The photo must be a multiple of MULTIPLE pixels on each side (the engine pads its windows to 8, JPEG's grid).
    MULTIPLE = 2

    def __init__(self, width=32, dilations=(1, 2, 4, 1)):
        super().__init__()
        self.fold = nn.PixelUnshuffle(2)
        self.inc = conv(12, width)
        self.body = nn.Sequential(*[Block(width, d) for d in dilations])
        self.out = conv(width, 12)
        self.unfold = nn.PixelShuffle(2)
        self.act = nn.LeakyReLU(0.1, inplace=True)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, rgb):
        x = self.act(self.inc(self.fold(rgb)))
        return torch.clamp(rgb + self.unfold(self.out(self.body(x))), 0.0, 1.0)

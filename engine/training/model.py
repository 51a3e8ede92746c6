"""The page restoration network: a small U-Net on a half-resolution view of the page.

The page (RGB in [0, 1]) is folded 2x2 into channels (pixel unshuffle), so every convolution runs on a quarter
of the pixels; four levels (1/2 to 1/16 of the page) see about 200 pixels around each point, enough for stains,
shadows and yellowed paper; the result is unfolded back to full resolution and added to the page's grey, so the
network learns the damage, not the page. Skips add instead of concatenating (fewer operations per pixel).
"""
import torch
from torch import nn


def conv(cin, cout, stride=1, dilation=1):
    return nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation)


class Block(nn.Module):
    """Two 3x3 convolutions with a residual connection."""

    def __init__(self, c, dilation=1):
        super().__init__()
        self.a = conv(c, c, dilation=dilation)
        self.b = conv(c, c)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return x + self.b(self.act(self.a(x)))


class PageNet(nn.Module):
    # Widths per level; the page must be a multiple of MULTIPLE pixels on each side (the engine pads its tiles).
    MULTIPLE = 32

    def __init__(self, widths=(12, 24, 32, 48)):
        super().__init__()
        c0, c1, c2, c3 = widths
        self.act = nn.ReLU(inplace=True)
        self.fold = nn.PixelUnshuffle(2)
        self.inc = conv(12, c0)
        self.down1 = conv(c0, c1, stride=2)
        self.enc1 = Block(c1)
        self.down2 = conv(c1, c2, stride=2)
        self.enc2 = Block(c2)
        self.down3 = conv(c2, c3, stride=2)
        self.mid = nn.Sequential(Block(c3, dilation=2), Block(c3))
        self.up3 = nn.Conv2d(c3, c2, 1)
        self.dec2 = Block(c2)
        self.up2 = nn.Conv2d(c2, c1, 1)
        self.dec1 = Block(c1)
        self.up1 = nn.Conv2d(c1, c0, 1)
        self.dec0 = conv(c0, c0)
        self.out = conv(c0, 4)
        self.unfold = nn.PixelShuffle(2)
        self.upsample = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, rgb):
        grey = rgb.mean(dim=1, keepdim=True)
        x0 = self.act(self.inc(self.fold(rgb)))
        x1 = self.enc1(self.act(self.down1(x0)))
        x2 = self.enc2(self.act(self.down2(x1)))
        x3 = self.mid(self.act(self.down3(x2)))
        y2 = self.dec2(x2 + self.upsample(self.up3(x3)))
        y1 = self.dec1(x1 + self.upsample(self.up2(y2)))
        y0 = self.act(self.dec0(x0 + self.upsample(self.up1(y1))))
        return torch.clamp(grey + self.unfold(self.out(y0)), 0.0, 1.0)

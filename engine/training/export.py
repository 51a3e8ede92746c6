#!/usr/bin/env python3
"""Exports a PageNet checkpoint (.pt, written by train.py at each best validation) to ONNX for the engine.

Usage: python3 export.py CHECKPOINT.pt OUT.onnx
"""
import sys

import torch

from model import PageNet


def export(model, path):
    model.eval()
    dummy = torch.rand(1, 3, 256, 256)
    torch.onnx.export(model, dummy, path, input_names=["page"], output_names=["restored"], opset_version=13,
                      dynamic_axes={"page": {2: "height", 3: "width"}, "restored": {2: "height", 3: "width"}})


if __name__ == "__main__":
    net = PageNet()
    net.load_state_dict(torch.load(sys.argv[1]))
    export(net, sys.argv[2])
    print("exported", sys.argv[2])

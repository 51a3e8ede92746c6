// The subset of onnx.proto (ONNX IR) the converter writes. Field numbers follow onnx/onnx.proto3 exactly;
// protobufjs encodes fields in declaration order, so the same model always gives the same bytes.
import protobuf from 'protobufjs';

const ONNX_PROTO = `
syntax = "proto3";
package onnx;

message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5; FLOATS = 6; INTS = 7; STRINGS = 8; }
  string name = 1;
  float f = 2;
  int64 i = 3;
  bytes s = 4;
  repeated float floats = 7;
  repeated int64 ints = 8;
  AttributeType type = 20;
}

message ValueInfoProto {
  string name = 1;
  TypeProto type = 2;
}

message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  repeated AttributeProto attribute = 5;
}

message StringStringEntryProto {
  string key = 1;
  string value = 2;
}

message OperatorSetIdProto {
  string domain = 1;
  int64 version = 2;
}

message ModelProto {
  int64 ir_version = 1;
  string producer_name = 2;
  string producer_version = 3;
  string doc_string = 6;
  GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
  repeated StringStringEntryProto metadata_props = 14;
}

message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}

message TensorProto {
  enum DataType { UNDEFINED = 0; FLOAT = 1; INT64 = 7; }
  repeated int64 dims = 1;
  int32 data_type = 2;
  string name = 8;
  bytes raw_data = 9;
}

message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dimension dim = 1;
}

message TypeProto {
  message Tensor {
    int32 elem_type = 1;
    TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
}
`;

export const ATTR = { FLOAT: 1, INT: 2, STRING: 3, FLOATS: 6, INTS: 7 } as const;
export const DTYPE = { FLOAT: 1, INT64: 7 } as const;

export interface OnnxAttribute {
  name: string;
  type: (typeof ATTR)[keyof typeof ATTR];
  f?: number;
  i?: number;
  s?: Uint8Array;
  floats?: number[];
  ints?: number[];
}

export interface OnnxNode {
  input: string[];
  output: string[];
  name: string;
  opType: string;
  attribute: OnnxAttribute[];
}

export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: (typeof DTYPE)[keyof typeof DTYPE];
  rawData: Uint8Array;
}

export interface OnnxValueInfo {
  name: string;
  type: { tensorType: { elemType: number; shape: { dim: ({ dimValue: number } | { dimParam: string })[] } } };
}

export interface OnnxModel {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  docString: string;
  graph: {
    node: OnnxNode[];
    name: string;
    initializer: OnnxTensor[];
    input: OnnxValueInfo[];
    output: OnnxValueInfo[];
  };
  opsetImport: { domain: string; version: number }[];
  metadataProps: { key: string; value: string }[];
}

let modelType: protobuf.Type | undefined;

function getModelType(): protobuf.Type {
  modelType ??= protobuf.parse(ONNX_PROTO, { keepCase: false }).root.lookupType('onnx.ModelProto');
  return modelType;
}

export function encodeModel(model: OnnxModel): Uint8Array {
  const type = getModelType();
  const message = type.fromObject(model);
  return type.encode(message).finish();
}

/** Decodes a model written by encodeModel (used by tests and to read metadata back). */
export function decodeModel(bytes: Uint8Array): OnnxModel {
  const type = getModelType();
  return type.toObject(type.decode(bytes), {
    longs: Number,
    bytes: Uint8Array,
    defaults: false,
  }) as OnnxModel;
}

// Converts a TF.js LayersModel (model.json + weight shards, Keras functional topology) into an ONNX graph.
// Covers the layer set the @upscalerjs ESRGAN packages use; anything else is refused with a clear error.
// Layout: the ONNX graph runs in NCHW (what ONNX Conv expects); kernels are transposed HWIO → OIHW here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ATTR,
  DTYPE,
  encodeModel,
  type OnnxAttribute,
  type OnnxModel,
  type OnnxNode,
  type OnnxTensor,
} from './onnx-schema.js';

export class ConversionError extends Error {
  override name = 'ConversionError';
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}

interface LayerSpec {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  inbound_nodes: [string, number, number, Record<string, unknown>][][];
}

interface LayersModelJson {
  format?: string;
  modelTopology: {
    model_config: {
      class_name: string;
      config: {
        layers: LayerSpec[];
        input_layers: [string, number, number][];
        output_layers: [string, number, number][];
      };
    };
  };
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
}

export interface TfjsLayersModel {
  json: LayersModelJson;
  weights: Map<string, { shape: number[]; values: Float32Array }>;
}

export interface ConvertOptions {
  /** Value range the source model expects and produces. The ONNX graph always takes and gives 0..255. */
  inputRange: [number, number];
  /** Free-form key/value pairs stored in the ONNX metadata (source package, version, licence). */
  metadata: Record<string, string>;
  graphName: string;
}

export async function loadTfjsLayersModel(modelJsonPath: string): Promise<TfjsLayersModel> {
  const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as LayersModelJson;
  if (json.format !== 'layers-model') {
    throw new ConversionError(
      `${modelJsonPath}: expected a TF.js layers-model, got format "${json.format ?? '?'}"`,
    );
  }
  const dir = path.dirname(modelJsonPath);
  const weights = new Map<string, { shape: number[]; values: Float32Array }>();
  for (const group of json.weightsManifest) {
    const shards = await Promise.all(group.paths.map((p) => readFile(path.join(dir, p))));
    const buffer = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.dtype !== 'float32' || spec.quantization !== undefined) {
        throw new ConversionError(`weight ${spec.name}: only unquantised float32 weights are supported`);
      }
      const count = spec.shape.reduce((a, b) => a * b, 1);
      const bytes = buffer.subarray(offset, offset + count * 4);
      if (bytes.length !== count * 4) throw new ConversionError(`weight ${spec.name}: shard data too short`);
      // Copy into an aligned buffer; weight files are little-endian float32 like every machine we run on.
      const values = new Float32Array(count);
      new Uint8Array(values.buffer).set(bytes);
      weights.set(spec.name, { shape: spec.shape, values });
      offset += count * 4;
    }
    if (offset !== buffer.length)
      throw new ConversionError(`weight group ${group.paths.join(',')}: trailing bytes`);
  }
  return { json, weights };
}

function floatTensor(name: string, dims: number[], values: Float32Array): OnnxTensor {
  return {
    name,
    dims,
    dataType: DTYPE.FLOAT,
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  };
}

function ints(name: string, values: number[]): OnnxAttribute {
  return { name, type: ATTR.INTS, ints: values };
}

function int(name: string, value: number): OnnxAttribute {
  return { name, type: ATTR.INT, i: value };
}

function str(name: string, value: string): OnnxAttribute {
  return { name, type: ATTR.STRING, s: new TextEncoder().encode(value) };
}

/** TF HWIO kernel → ONNX OIHW. */
function transposeKernel(values: Float32Array, [kh, kw, cin, cout]: number[]): Float32Array {
  if (kh === undefined || kw === undefined || cin === undefined || cout === undefined) {
    throw new ConversionError('kernel must be 4-D');
  }
  const out = new Float32Array(values.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++) {
          out[((o * cin + i) * kh + y) * kw + x] = values[((y * kw + x) * cin + i) * cout + o]!;
        }
  return out;
}

function pair(value: unknown, what: string): [number, number] {
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number')) {
    return [value[0] as number, value[1] as number];
  }
  throw new ConversionError(`${what}: expected a pair of numbers`);
}

class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];

  node(
    opType: string,
    name: string,
    input: string[],
    output: string,
    attribute: OnnxAttribute[] = [],
  ): string {
    this.nodes.push({ opType, name, input, output: [output], attribute });
    return output;
  }

  constant(name: string, dims: number[], values: number[] | Float32Array): string {
    this.initializers.push(floatTensor(name, dims, Float32Array.from(values)));
    return name;
  }
}

const INPUT = 'input';
const OUTPUT = 'output';

/** Layer types the @upscalerjs packages register themselves (MultiplyBeta, PixelShuffleNx). */
function customLayer(builder: GraphBuilder, layer: LayerSpec, inputs: string[]): string | undefined {
  const x = inputs[0]!;
  if (layer.class_name === 'MultiplyBeta') {
    // upscalerjs' ESRGAN residual scaling: y = 0.2 · x
    const beta = builder.constant(`${layer.name}/beta`, [], [0.2]);
    return builder.node('Mul', layer.name, [x, beta], layer.name);
  }
  const shuffle = /^PixelShuffle(\d+)x$/.exec(layer.class_name);
  if (shuffle) {
    // tf.depthToSpace(NHWC) orders channels depth-column-row, which is ONNX DepthToSpace mode DCR.
    return builder.node('DepthToSpace', layer.name, [x], layer.name, [
      int('blocksize', Number(shuffle[1])),
      str('mode', 'DCR'),
    ]);
  }
  return undefined;
}

function activation(builder: GraphBuilder, name: string, kind: unknown, x: string, out: string): string {
  switch (kind) {
    case 'linear':
      return builder.node('Identity', name, [x], out);
    case 'relu':
      return builder.node('Relu', name, [x], out);
    case 'sigmoid':
      return builder.node('Sigmoid', name, [x], out);
    case 'tanh':
      return builder.node('Tanh', name, [x], out);
    default:
      throw new ConversionError(`activation "${String(kind)}" is not supported`);
  }
}

function conv2d(builder: GraphBuilder, model: TfjsLayersModel, layer: LayerSpec, x: string): string {
  const c = layer.config;
  const kernel = model.weights.get(`${layer.name}/kernel`);
  if (!kernel) throw new ConversionError(`${layer.name}: kernel weights missing`);
  if (c.data_format !== 'channels_last')
    throw new ConversionError(`${layer.name}: only channels_last is supported`);
  if ((c.groups ?? 1) !== 1)
    throw new ConversionError(`${layer.name}: grouped convolutions are not supported`);
  const [kh, kw] = pair(c.kernel_size, `${layer.name}.kernel_size`);
  const strides = pair(c.strides, `${layer.name}.strides`);
  const dilations = pair(c.dilation_rate, `${layer.name}.dilation_rate`);
  let pads = [0, 0, 0, 0];
  if (c.padding === 'same') {
    if (strides[0] !== 1 || strides[1] !== 1)
      throw new ConversionError(`${layer.name}: "same" padding needs stride 1`);
    // Same as TF: total padding dilation·(k−1), the odd pixel goes to the end.
    const th = dilations[0] * (kh - 1);
    const tw = dilations[1] * (kw - 1);
    pads = [Math.floor(th / 2), Math.floor(tw / 2), th - Math.floor(th / 2), tw - Math.floor(tw / 2)];
  } else if (c.padding !== 'valid') {
    throw new ConversionError(`${layer.name}: padding "${String(c.padding)}" is not supported`);
  }
  const w = builder.constant(
    `${layer.name}/kernel`,
    [kernel.shape[3]!, kernel.shape[2]!, kh, kw],
    transposeKernel(kernel.values, kernel.shape),
  );
  const inputs = [x, w];
  if (c.use_bias === true) {
    const bias = model.weights.get(`${layer.name}/bias`);
    if (!bias) throw new ConversionError(`${layer.name}: bias weights missing`);
    inputs.push(builder.constant(`${layer.name}/bias`, bias.shape, bias.values));
  }
  const act = c.activation ?? 'linear';
  const convOut = act === 'linear' ? layer.name : `${layer.name}/conv`;
  builder.node('Conv', `${layer.name}/Conv`, inputs, convOut, [
    ints('kernel_shape', [kh, kw]),
    ints('strides', strides),
    ints('dilations', dilations),
    ints('pads', pads),
    int('group', 1),
  ]);
  return act === 'linear' ? convOut : activation(builder, `${layer.name}/act`, act, convOut, layer.name);
}

function channelAxis(axis: unknown, layer: string): number {
  if (axis === 3 || axis === -1) return 1;
  throw new ConversionError(`${layer}: only concatenation along channels is supported`);
}

function convertLayer(
  builder: GraphBuilder,
  model: TfjsLayersModel,
  layer: LayerSpec,
  inputs: string[],
): string {
  const x = inputs[0]!;
  switch (layer.class_name) {
    case 'Conv2D':
      return conv2d(builder, model, layer, x);
    case 'Activation':
      return activation(builder, layer.name, layer.config.activation, x, layer.name);
    case 'ReLU':
      return builder.node('Relu', layer.name, [x], layer.name);
    case 'LeakyReLU':
      return builder.node('LeakyRelu', layer.name, [x], layer.name, [
        {
          name: 'alpha',
          type: ATTR.FLOAT,
          f: typeof layer.config.alpha === 'number' ? layer.config.alpha : 0.3,
        },
      ]);
    case 'Add':
      return builder.node(inputs.length === 2 ? 'Add' : 'Sum', layer.name, inputs, layer.name);
    case 'Concatenate':
      return builder.node('Concat', layer.name, inputs, layer.name, [
        int('axis', channelAxis(layer.config.axis, layer.name)),
      ]);
    case 'UpSampling2D': {
      if (layer.config.interpolation !== 'nearest')
        throw new ConversionError(`${layer.name}: only nearest upsampling is supported`);
      const [sh, sw] = pair(layer.config.size, `${layer.name}.size`);
      const scales = builder.constant(`${layer.name}/scales`, [4], [1, 1, sh, sw]);
      // tf.image.resizeNearestNeighbor without align/half-pixel flags picks src = floor(dst / scale).
      return builder.node('Resize', layer.name, [x, '', scales], layer.name, [
        str('mode', 'nearest'),
        str('coordinate_transformation_mode', 'asymmetric'),
        str('nearest_mode', 'floor'),
      ]);
    }
    default: {
      const custom = customLayer(builder, layer, inputs);
      if (custom === undefined)
        throw new ConversionError(`${layer.name}: layer type ${layer.class_name} is not supported`);
      return custom;
    }
  }
}

function imageValueInfo(name: string) {
  return {
    name,
    type: {
      tensorType: {
        elemType: DTYPE.FLOAT,
        shape: {
          dim: [
            { dimParam: 'batch' },
            { dimValue: 3 },
            { dimParam: `${name}_height` },
            { dimParam: `${name}_width` },
          ],
        },
      },
    },
  };
}

/** Builds the ONNX model. Input "input" and output "output" are NCHW float32 RGB in 0..255 (not clipped). */
export function convertLayersModel(model: TfjsLayersModel, options: ConvertOptions): Uint8Array {
  const config = model.json.modelTopology.model_config;
  if (config.class_name !== 'Functional' && config.class_name !== 'Model') {
    throw new ConversionError(`only functional Keras models are supported, got ${config.class_name}`);
  }
  const { layers, input_layers: inputLayers, output_layers: outputLayers } = config.config;
  if (inputLayers.length !== 1 || outputLayers.length !== 1)
    throw new ConversionError('expected one input and one output');

  const builder = new GraphBuilder();
  const [lo, hi] = options.inputRange;
  const tensorOf = new Map<string, string>();

  // Map 0..255 onto the range the model was trained on.
  let entry = INPUT;
  if (lo !== 0 || hi !== 255) {
    const scale = builder.constant('input/scale', [], [(hi - lo) / 255]);
    entry = builder.node('Mul', 'input/scale', [INPUT, scale], 'input/scaled');
    if (lo !== 0)
      entry = builder.node(
        'Add',
        'input/shift',
        [entry, builder.constant('input/offset', [], [lo])],
        'input/shifted',
      );
  }

  for (const layer of layers) {
    if (layer.class_name === 'InputLayer') {
      tensorOf.set(layer.name, entry);
      continue;
    }
    if (layer.inbound_nodes.length !== 1)
      throw new ConversionError(`${layer.name}: shared layers are not supported`);
    const inputs = layer.inbound_nodes[0]!.map(([source, nodeIndex, tensorIndex]) => {
      const tensor = tensorOf.get(source);
      if (tensor === undefined || nodeIndex !== 0 || tensorIndex !== 0) {
        throw new ConversionError(`${layer.name}: input ${source} is not available (layers out of order?)`);
      }
      return tensor;
    });
    tensorOf.set(layer.name, convertLayer(builder, model, layer, inputs));
  }

  const last = tensorOf.get(outputLayers[0]![0]);
  if (last === undefined) throw new ConversionError('output layer was not converted');
  let exit = last;
  if (lo !== 0 || hi !== 255) {
    if (lo !== 0)
      exit = builder.node(
        'Sub',
        'output/unshift',
        [exit, builder.constant('output/offset', [], [lo])],
        'output/unshifted',
      );
    exit = builder.node(
      'Mul',
      'output/scale',
      [exit, builder.constant('output/scale', [], [255 / (hi - lo)])],
      'output/scaled',
    );
  }
  builder.node('Identity', 'output', [exit], OUTPUT);

  const onnx: OnnxModel = {
    irVersion: 8,
    producerName: 'folio-engine convert-models',
    producerVersion: '1',
    docString: `Converted from a TF.js layers model (${options.graphName}).`,
    graph: {
      name: options.graphName,
      node: builder.nodes,
      initializer: builder.initializers,
      input: [imageValueInfo(INPUT)],
      output: [imageValueInfo(OUTPUT)],
    },
    opsetImport: [{ domain: '', version: 17 }],
    metadataProps: Object.keys(options.metadata)
      .sort()
      .map((key) => ({ key, value: options.metadata[key]! })),
  };
  return encodeModel(onnx);
}

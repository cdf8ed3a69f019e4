import protobuf from 'protobufjs';

/**
 * Writes ONNX models without Python: the subset of onnx.proto (onnx/onnx, onnx/onnx.proto, IR version 8) that a
 * sequence-classification graph needs, encoded with protobufjs. Field numbers are those of onnx.proto.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            producer_name: { type: 'string', id: 2 },
            graph: { type: 'GraphProto', id: 7 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            domain: { type: 'string', id: 7 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            type: { type: 'int32', id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            data_type: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensor_type: { type: 'TensorTypeProto', id: 1 } } },
        TensorTypeProto: { fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: { fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 } } },
      },
    },
  },
});
const Model = root.lookupType('onnx.ModelProto');

/** onnx.TensorProto.DataType */
export const DT = { FLOAT: 1, INT8: 3, INT64: 7 } as const;
const ATTR = { FLOAT: 1, INT: 2, INTS: 7 } as const;

export interface Tensor {
  name: string;
  dims: number[];
  type: number;
  data: Float32Array | Int8Array | BigInt64Array;
}

export const floats = (name: string, dims: number[], values: ArrayLike<number>): Tensor => ({ name, dims, type: DT.FLOAT, data: Float32Array.from(values) });
export const int64s = (name: string, dims: number[], values: number[]): Tensor => ({ name, dims, type: DT.INT64, data: BigInt64Array.from(values.map(BigInt)) });
export const int8s = (name: string, dims: number[], values: ArrayLike<number>): Tensor => ({ name, dims, type: DT.INT8, data: Int8Array.from(values) });

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, number | number[]>;
  domain?: string;
}

function attribute(name: string, value: number | number[]) {
  if (Array.isArray(value)) return { name, ints: value, type: ATTR.INTS };
  return Number.isInteger(value) ? { name, i: value, type: ATTR.INT } : { name, f: value, type: ATTR.FLOAT };
}

const valueInfo = (name: string, elemType: number, dims: (number | string)[]) => ({
  name,
  type: { tensor_type: { elem_type: elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) } } },
});

/**
 * A model with the inputs and output of a Hugging Face sequence-classification export: input_ids and attention_mask,
 * plus token_type_ids for BERT-family exports (`inputs`).
 */
export function encodeModel(nodes: Node[], initializers: Tensor[], numLabels: number, opset = 17, inputs: readonly string[] = ['input_ids', 'attention_mask']): Uint8Array {
  const message = Model.fromObject({
    ir_version: 8,
    producer_name: 'bastion-tests',
    opset_import: [{ domain: '', version: opset }, { domain: 'com.microsoft', version: 1 }],
    graph: {
      name: 'classifier',
      node: nodes.map((n, i) => ({
        input: n.inputs,
        output: n.outputs,
        name: `n${i}`,
        op_type: n.op,
        domain: n.domain ?? '',
        attribute: Object.entries(n.attrs ?? {}).map(([k, v]) => attribute(k, v)),
      })),
      initializer: initializers.map((t) => ({ name: t.name, dims: t.dims, data_type: t.type, raw_data: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength) })),
      input: inputs.map((name) => valueInfo(name, DT.INT64, ['batch', 'sequence'])),
      output: [valueInfo('logits', DT.FLOAT, ['batch', numLabels])],
    },
  });
  return Model.encode(message).finish();
}

/**
 * The smallest classifier with a real export's interface: embedding lookup, mean over the unmasked tokens, one linear
 * layer. logits = mean(E[ids where mask=1]) · W + b, so a test computes the expected logits by hand.
 */
export function meanPoolClassifier(embeddings: number[][], weights: number[][], bias: number[], options: { tokenTypes?: boolean } = {}): Uint8Array {
  const vocab = embeddings.length;
  const dim = embeddings[0].length;
  // BERT-family exports add a token-type embedding (zero here, so the logits stay those computed by hand).
  const types: Node[] = options.tokenTypes
    ? [{ op: 'Gather', inputs: ['T', 'token_type_ids'], outputs: ['typed'] }, { op: 'Add', inputs: ['words', 'typed'], outputs: ['emb'] }]
    : [{ op: 'Identity', inputs: ['words'], outputs: ['emb'] }];
  return encodeModel(
    [
      { op: 'Gather', inputs: ['E', 'input_ids'], outputs: ['words'] },
      ...types,
      { op: 'Cast', inputs: ['attention_mask'], outputs: ['m'], attrs: { to: DT.FLOAT } },
      { op: 'Unsqueeze', inputs: ['m', 'axis2'], outputs: ['m3'] },
      { op: 'Mul', inputs: ['emb', 'm3'], outputs: ['masked'] },
      { op: 'ReduceSum', inputs: ['masked', 'axis1'], outputs: ['sum'], attrs: { keepdims: 0 } },
      { op: 'ReduceSum', inputs: ['m', 'axis1'], outputs: ['count'], attrs: { keepdims: 1 } },
      { op: 'Div', inputs: ['sum', 'count'], outputs: ['mean'] },
      { op: 'MatMul', inputs: ['mean', 'W'], outputs: ['xw'] },
      { op: 'Add', inputs: ['xw', 'B'], outputs: ['logits'] },
    ],
    [
      floats('E', [vocab, dim], embeddings.flat()),
      floats('W', [dim, bias.length], weights.flat()),
      floats('B', [bias.length], bias),
      int64s('axis1', [1], [1]),
      int64s('axis2', [1], [2]),
      ...(options.tokenTypes ? [floats('T', [2, dim], new Array(2 * dim).fill(0))] : []),
    ],
    bias.length,
    17,
    options.tokenTypes ? ['input_ids', 'attention_mask', 'token_type_ids'] : undefined,
  );
}

import { describe, expect, it } from 'vitest';
import { nestedErrorBody, serverErrorOf } from '../../../shared/judge-client/error-body.js';

/** The error of a judge server's answer, read from each shape OpenAI-compatible servers write it in. */
describe('serverErrorOf', () => {
  it.each([
    {
      shape: "OpenAI's nested error",
      body: { error: { message: 'response_format is not supported', type: 'invalid_request_error', param: 'response_format', code: null } },
      expected: { message: 'response_format is not supported', type: 'invalid_request_error', param: 'response_format', code: null },
    },
    {
      shape: "vLLM's fields at the top level",
      body: { object: 'error', message: "'json_schema' is not supported", type: 'BadRequestError', param: null, code: 400 },
      expected: { message: "'json_schema' is not supported", type: 'BadRequestError', param: null, code: 400 },
    },
    {
      shape: "FastAPI's detail text",
      body: { detail: 'Model not loaded' },
      expected: { message: 'Model not loaded', type: null, param: null, code: null },
    },
    {
      shape: "FastAPI's validation issues, named by their request field",
      body: {
        detail: [
          {
            type: 'literal_error',
            loc: ['body', 'response_format', 'type'],
            msg: "Input should be 'text' or 'json_object'",
            input: 'json_schema',
          },
          { type: 'missing', loc: ['query', 'version'], msg: 'Field required' },
        ],
      },
      expected: {
        message: "response_format.type: Input should be 'text' or 'json_object'; query.version: Field required",
        type: null,
        param: 'response_format.type',
        code: null,
      },
    },
    {
      shape: 'an error given as text',
      body: { error: 'model "judge" not found, try pulling it first' },
      expected: { message: 'model "judge" not found, try pulling it first', type: null, param: null, code: null },
    },
  ])('reads $shape', ({ body, expected }) => {
    // Act
    const error = serverErrorOf(body);

    // Assess
    expect(error).toEqual(expected);
  });

  it('reads nothing from a body that says no error', () => {
    expect(serverErrorOf({ status: 'failed' })).toBeUndefined();
    expect(serverErrorOf('Bad Gateway')).toBeUndefined();
    expect(serverErrorOf(null)).toBeUndefined();
  });
});

describe('nestedErrorBody', () => {
  it('writes an error of another shape in the nested shape the openai SDK reads', () => {
    // Act
    const body = nestedErrorBody({ object: 'error', message: 'bad', type: 'BadRequestError', param: null, code: 400 });

    // Assess
    expect(JSON.parse(body ?? 'null')).toEqual({ error: { message: 'bad', type: 'BadRequestError', param: null, code: 400 } });
  });

  it('leaves a body already in the nested shape, and one that says nothing readable, as they are', () => {
    expect(nestedErrorBody({ error: { message: 'bad', type: 'invalid_request_error' } })).toBeUndefined();
    expect(nestedErrorBody({ status: 'failed' })).toBeUndefined();
  });
});

import { readFileSync } from 'node:fs'
import { OUTPUT_NAMES, outputs, typedOutputs } from '../../../src/report/outputs.js'

const actionOutputs = [
  ...readFileSync(new URL('../../../action.yml', import.meta.url), 'utf8')
    .split(/^outputs:$/m)[1]
    .matchAll(/^ {2}([a-z-]+):$/gm)
].map((m) => m[1])

describe('the outputs', () => {
  it("name every one of action.yml's outputs, in its order, and no other (OutputName is this list's union)", () => {
    expect([...OUTPUT_NAMES]).toEqual(actionOutputs)
  })

  it('are set under those names, in that order', () => {
    const url = new URL('http://127.0.0.1:8000/v1/models')
    const one = { url, ready: true, reason: 'ready' as const, elapsedMs: 1_000, attempts: 1, models: [], timeline: [] }
    expect(Object.keys(outputs({ ...one, results: [one] }))).toEqual(actionOutputs)
  })
})

describe('typedOutputs (--json)', () => {
  it('gives numbers as numbers, booleans as booleans, lists and objects as JSON values, text as text', () => {
    expect(
      typedOutputs({
        ready: 'true',
        'elapsed-seconds': '20.3',
        attempts: '12',
        'status-code': '200',
        models: '["a","b"]',
        'model-id': 'a',
        reason: 'ready',
        results: '[{"url":"http://h/","ready":true,"status-code":null}]',
        phases: '[]',
        'regression-percent': '-4.5'
      })
    ).toEqual({
      ready: true,
      'elapsed-seconds': 20.3,
      attempts: 12,
      'status-code': 200,
      models: ['a', 'b'],
      'model-id': 'a',
      reason: 'ready',
      results: [{ url: 'http://h/', ready: true, 'status-code': null }],
      phases: [],
      'regression-percent': -4.5
    })
  })

  it('gives an empty number or list as null, empty text as "", and a false as false', () => {
    expect(
      typedOutputs({ ready: 'false', pid: '', 'status-code': '', phases: '', 'log-file': '', 'model-id': '' })
    ).toEqual({ ready: false, pid: null, 'status-code': null, phases: null, 'log-file': '', 'model-id': '' })
  })

  it('keeps a value that does not read as its kind (a redacted one, an output it does not know) as its text', () => {
    expect(typedOutputs({ models: '[***', attempts: '***', ready: 'maybe', 'pre-flight': '3' })).toEqual({
      models: '[***',
      attempts: '***',
      ready: 'maybe',
      'pre-flight': '3'
    })
  })
})

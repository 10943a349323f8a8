import { matchModel } from '../../../src/engines/match.js'

const ids = (...list: string[]): Array<{ id: string }> => list.map((id) => ({ id }))
const found = (list: Array<{ id: string }>, wanted: string): string | undefined => {
  const m = matchModel(list, wanted)
  return m.kind === 'found' ? m.model.id : undefined
}

describe('matchModel', () => {
  it('prefers an exact id over ids that merely contain it', () => {
    expect(matchModel(ids('/shared/kimi-k2.5-int4', 'kimi', 'kimi-draft'), 'kimi')).toEqual({
      kind: 'found',
      model: { id: 'kimi' },
      how: 'exact'
    })
  })

  it('then an id equal to it but for case, then one ending with /<model>', () => {
    expect(
      matchModel(ids('Llama-3.1-8B-Instruct-lora', 'LLAMA-3.1-8B-instruct'), 'llama-3.1-8b-instruct')
    ).toMatchObject({ kind: 'found', model: { id: 'LLAMA-3.1-8B-instruct' }, how: 'case-insensitive' })
    expect(
      matchModel(
        ids('meta-llama/Llama-3.1-8B-Instruct-lora', 'meta-llama/Llama-3.1-8B-Instruct'),
        'llama-3.1-8b-instruct'
      )
    ).toMatchObject({
      kind: 'found',
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
      how: 'path'
    })
  })

  it('takes the one id that contains it, ignoring case', () => {
    expect(matchModel(ids('/shared/KIMI-k2.5-int4', 'llama'), 'kimi-k2')).toMatchObject({
      kind: 'found',
      model: { id: '/shared/KIMI-k2.5-int4' },
      how: 'contains'
    })
  })

  it('does not guess between several ids that contain it (the LoRA adapter listed first)', () => {
    expect(matchModel(ids('llama-3.1-8b-instruct-lora-sql', 'llama-3.1-8b-instruct'), 'llama-3.1-8b')).toEqual({
      kind: 'ambiguous',
      candidates: ids('llama-3.1-8b-instruct-lora-sql', 'llama-3.1-8b-instruct')
    })
    // and the exact id settles it
    expect(found(ids('llama-3.1-8b-instruct-lora-sql', 'llama-3.1-8b-instruct'), 'llama-3.1-8b-instruct')).toBe(
      'llama-3.1-8b-instruct'
    )
  })

  it('is ambiguous when two paths end with the name', () => {
    expect(matchModel(ids('/a/model', '/b/model'), 'model')).toMatchObject({ kind: 'ambiguous' })
  })

  it('counts an id listed twice as one model', () => {
    expect(found(ids('llama3.2:latest', 'llama3.2:latest'), 'llama3.2')).toBe('llama3.2:latest')
  })

  it('finds nothing when nothing contains it', () => {
    expect(matchModel(ids('/shared/kimi-k2.5-int4'), 'llama')).toEqual({ kind: 'missing' })
    expect(matchModel([], 'llama')).toEqual({ kind: 'missing' })
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The README's first screen: within its first 60 lines, how to use it before the first release, the loop it
 * replaces, the workflow snippet and a picture of the job summary; every picture under docs/images/ made by
 * `npm run images` (scripts/summary-images.mjs names it), so that it can be made again after a change of the summary.
 */
const root = new URL('../../..', import.meta.url).pathname
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const firstScreen = readme.split('\n').slice(0, 60).join('\n')
const script = readFileSync(join(root, 'scripts/summary-images.mjs'), 'utf8')
const images = readdirSync(join(root, 'docs/images'))

it('holds the unreleased note, the loop, the snippet and a picture of the summary in its first 60 lines', () => {
  expect(firstScreen).toMatch(/\*\*Not released yet\*\*/)
  expect(firstScreen).toMatch(/uses: OWNER\/wait-for-model@<full commit SHA>/)
  expect(firstScreen).toMatch(/node dist\/cli\.js/)
  expect(firstScreen).toMatch(/```bash\nfor i in .*\n {2}curl /)
  expect(firstScreen).toMatch(/```yaml\n- name: .*\n(?: {2}.*\n)* {2}uses: OWNER\/wait-for-model@v1\b/)
  const pictures = [...firstScreen.matchAll(/!\[[^\]]+\]\(docs\/images\/([^)]+\.png)\)/g)].map(([, name]) => name)
  expect(pictures).toEqual(['summary-ready.png', 'summary-failure.png'])
})

it('every picture of docs/images is a PNG that npm run images makes', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  expect(pkg.scripts.images).toBe('node scripts/summary-images.mjs')
  expect(images.length).toBeGreaterThan(0)
  for (const name of images) {
    const png = readFileSync(join(root, 'docs/images', name))
    // the PNG signature, then IHDR's width: drawn at twice the 860 px page, sharp on a high-density screen
    expect({ name, png: png.subarray(0, 8).toString('hex'), width: png.readUInt32BE(16) }).toEqual({
      name,
      png: '89504e470d0a1a0a',
      width: 1720
    })
    expect({ name, made: script.includes(`image: '${name}'`) }).toEqual({ name, made: true })
  }
})

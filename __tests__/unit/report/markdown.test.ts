import { mdText } from '../../../src/report/markdown.js'

describe('mdText', () => {
  it('shows markup from a server as text: no HTML, code span, emphasis, link, image or autolink', () => {
    expect(mdText('a`b <img src=x> [l](https://e.example) ![i](x) **b** _i_ ~s~ www.e.example & \\')).toBe(
      'a\\`b &lt;img src=x&gt; \\[l\\](https:\\/\\/e.example) !\\[i\\](x) \\*\\*b\\*\\* \\_i\\_ \\~s\\~ www\\.e.example &amp; \\\\'
    )
  })
  it('leaves ordinary words alone', () =>
    expect(mdText('HTTP 200, serving kimi-k2.5')).toBe('HTTP 200, serving kimi-k2.5'))
})

// A tolerant HTML/XML parser producing a small DOM for XPath. HTML mode follows the browser rules that
// matter for XPath paths in templates: lower-case names, void elements, implied end tags, raw-text
// elements, implied <html>/<head>/<body> and <tbody> inside tables.
import { lazy } from '../../lazy.ts';

const entities = lazy<typeof import('entities')>('entities');

export interface XNode {
  type: 'document' | 'element' | 'text' | 'comment' | 'attribute';
  name: string;
  value: string; // text/comment/attribute content
  attrs: XNode[];
  children: XNode[];
  parent: XNode | null;
  order: number; // document order, for sorting node-sets
}

function node(type: XNode['type'], name: string, parent: XNode | null, value = ''): XNode {
  return { type, name, value, attrs: [], children: [], parent, order: 0 };
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
]);
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'div',
  'dl',
  'fieldset',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
  'details',
  'figure',
  'figcaption',
  'menu',
]);
const HEAD_TAGS = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript']);

/** Elements that an opening tag implicitly closes when they are the current element. */
function impliedClose(current: string, opening: string): boolean {
  if (current === 'p' && CLOSES_P.has(opening)) return true;
  if (current === 'li' && opening === 'li') return true;
  if ((current === 'dt' || current === 'dd') && (opening === 'dt' || opening === 'dd')) return true;
  if ((current === 'td' || current === 'th') && (opening === 'td' || opening === 'th' || opening === 'tr')) return true;
  if (current === 'tr' && (opening === 'tr' || opening === 'tbody' || opening === 'tfoot')) return true;
  if ((current === 'thead' || current === 'tbody') && (opening === 'tbody' || opening === 'tfoot')) return true;
  if (current === 'option' && (opening === 'option' || opening === 'optgroup')) return true;
  return false;
}

const ATTR_RE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

export function parseMarkup(src: string, xml: boolean): XNode {
  const doc = node('document', '#document', null);
  const stack: XNode[] = [doc];
  const cur = () => stack[stack.length - 1];
  const decode = xml ? entities().decodeXML : entities().decodeHTML;
  const addText = (t: string) => {
    if (!t) return;
    const parent = cur();
    const last = parent.children[parent.children.length - 1];
    if (last && last.type === 'text') last.value += decode(t);
    else parent.children.push(node('text', '#text', parent, decode(t)));
  };
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt < 0) {
      addText(src.slice(i));
      break;
    }
    addText(src.slice(i, lt));
    i = lt;
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      const body = src.slice(i + 4, end < 0 ? src.length : end);
      cur().children.push(node('comment', '#comment', cur(), body));
      i = end < 0 ? src.length : end + 3;
      continue;
    }
    if (src.startsWith('<![CDATA[', i)) {
      const end = src.indexOf(']]>', i);
      const body = src.slice(i + 9, end < 0 ? src.length : end);
      cur().children.push(node('text', '#text', cur(), body));
      i = end < 0 ? src.length : end + 3;
      continue;
    }
    if (src[i + 1] === '!' || src[i + 1] === '?') {
      const end = src.indexOf('>', i);
      i = end < 0 ? src.length : end + 1;
      continue;
    }
    if (src[i + 1] === '/') {
      const m = /^<\/\s*([^\s>]+)\s*[^>]*>?/.exec(src.slice(i));
      if (!m) {
        addText('<');
        i++;
        continue;
      }
      const name = xml ? m[1] : m[1].toLowerCase();
      for (let s = stack.length - 1; s > 0; s--) {
        if (stack[s].name === name) {
          stack.length = s;
          break;
        }
      }
      i += m[0].length;
      continue;
    }
    const m = /^<([A-Za-z_][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(src.slice(i));
    if (!m) {
      addText('<');
      i++;
      continue;
    }
    const name = xml ? m[1] : m[1].toLowerCase();
    let attrText = m[2];
    const selfClosing = /\/\s*$/.test(attrText);
    if (selfClosing) attrText = attrText.replace(/\/\s*$/, '');
    if (!xml) {
      while (stack.length > 1 && impliedClose(cur().name, name)) stack.pop();
      if (name === 'tr' && cur().name === 'table') {
        const tbody = node('element', 'tbody', cur());
        cur().children.push(tbody);
        stack.push(tbody);
      }
    }
    const el = node('element', name, cur());
    for (const a of attrText.matchAll(ATTR_RE)) {
      const an = xml ? a[1] : a[1].toLowerCase();
      if (el.attrs.some((x) => x.name === an)) continue;
      el.attrs.push(node('attribute', an, el, decode(a[2] ?? a[3] ?? a[4] ?? '')));
    }
    cur().children.push(el);
    i += m[0].length;
    if (selfClosing || (!xml && VOID.has(name))) continue;
    if (!xml && RAW.has(name)) {
      const close = src.toLowerCase().indexOf(`</${name}`, i);
      const body = src.slice(i, close < 0 ? src.length : close);
      if (body)
        el.children.push(
          node('text', '#text', el, name === 'title' || name === 'textarea' ? entities().decodeHTML(body) : body),
        );
      const gt = close < 0 ? -1 : src.indexOf('>', close);
      i = gt < 0 ? src.length : gt + 1;
      continue;
    }
    stack.push(el);
  }
  if (!xml) normalizeHtml(doc);
  number(doc, { n: 0 });
  return doc;
}

/** Give the document the html > head + body shape that browsers (and Go's html parser) build. */
function normalizeHtml(doc: XNode): void {
  let html = doc.children.find((c) => c.type === 'element' && c.name === 'html');
  if (!html) {
    html = node('element', 'html', doc);
    html.children = doc.children.filter((c) => c.type !== 'comment');
    doc.children = [...doc.children.filter((c) => c.type === 'comment'), html];
    html.children.forEach((c) => (c.parent = html!));
  }
  const h = html;
  let head = h.children.find((c) => c.type === 'element' && c.name === 'head');
  let body = h.children.find((c) => c.type === 'element' && c.name === 'body');
  if (head && body) return;
  const rest = h.children.filter((c) => c !== head && c !== body);
  if (!head) head = node('element', 'head', h);
  if (!body) body = node('element', 'body', h);
  let inHead = true;
  for (const c of rest) {
    if (c.type === 'text' && c.value.trim() === '' && inHead) continue;
    if (inHead && c.type === 'element' && HEAD_TAGS.has(c.name)) {
      head.children.push(c);
      c.parent = head;
    } else if (c.type === 'comment' && inHead) {
      head.children.push(c);
      c.parent = head;
    } else {
      inHead = false;
      body.children.push(c);
      c.parent = body;
    }
  }
  h.children = [head, body];
}

function number(n: XNode, counter: { n: number }): void {
  n.order = counter.n++;
  for (const a of n.attrs) a.order = counter.n++;
  for (const c of n.children) number(c, counter);
}

/** XPath string-value: concatenated text of all descendant text nodes. */
export function stringValue(n: XNode): string {
  if (n.type === 'text' || n.type === 'comment' || n.type === 'attribute') return n.value;
  let out = '';
  const walk = (x: XNode) => {
    for (const c of x.children) {
      if (c.type === 'text') out += c.value;
      else if (c.type === 'element') walk(c);
    }
  };
  walk(n);
  return out;
}

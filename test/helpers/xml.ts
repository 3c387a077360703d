import { SaxesParser } from 'saxes';

/** An element of a parsed XML document: its expanded name, attributes, text and children. */
export interface XmlElement {
  /** `{namespace}local`, so a test names elements as the format defines them, whatever prefix a file uses. */
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
}

/**
 * Parses a document with saxes, a conforming, namespace-aware XML parser: a file that is not
 * well-formed (an unescaped `&` or `<` in a name, say) throws, as it would in the programs that open it.
 */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const [key, attribute] of Object.entries(tag.attributes)) attributes[key] = typeof attribute === 'string' ? attribute : attribute.value;
    const element: XmlElement = { name: `{${tag.uri ?? ''}}${tag.local ?? tag.name}`, attributes, text: '', children: [] };
    stack.at(-1)?.children.push(element);
    stack.push(element);
    root ??= element;
  });
  parser.on('text', (value) => {
    const current = stack.at(-1);
    if (current) current.text += value;
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** Every descendant (depth first) with that expanded name. */
export function descendants(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const child of e.children) {
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(element);
  return found;
}

// An island's `children` as HTML: a component from the islands folder used in Markdown gets the block's
// rendered Markdown as children. Its props travel as JSON, so the children go as `{ [HTML_CHILDREN]: html }`
// and become, on the server and in the browser alike, a <sitegen-children> element holding that HTML
// (React leaves such content as it is when it hydrates). Plain code: the browser runtime imports it.
export const HTML_CHILDREN = 'sitegenHtml';

type Create = (type: string, props: Record<string, unknown>) => unknown;

/** `props` with HTML children made into the element that holds them (the same props when there are none). */
export function withHtmlChildren<P>(props: P, create: Create): P {
  const c = (props as { children?: unknown })?.children as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object' || typeof c[HTML_CHILDREN] !== 'string') return props;
  return { ...props, children: create('sitegen-children', { dangerouslySetInnerHTML: { __html: c[HTML_CHILDREN] } }) };
}

// /uae-pdpl: the whole statement is the PdplDocument island, because the language toggle re-renders all of it.
import PdplDocument, { type PdplDocumentProps } from '../../islands/PdplDocument.tsx';

export function UaePdplPage(props: PdplDocumentProps) {
  return <PdplDocument {...props} />;
}

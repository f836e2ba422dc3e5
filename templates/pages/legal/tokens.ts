// Legal copy's {token} placeholders follow the site's one rule for tokens (templates/lib/tokens.ts).
export { fillTokens, unknownTokens, type TokenValues } from '../../lib/tokens.ts';

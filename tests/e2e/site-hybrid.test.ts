// The hybrid sector pages in Chromium: the route checks and the spec's facts of tests/e2e/siteRoutes.ts.
import { checkRoutes } from './siteRoutes.ts';

checkRoutes('site-hybrid');

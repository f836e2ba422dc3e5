// The URL policy href() starts from. On the server none (the renderer sets its site's before each page);
// the client bundle replaces this module with one holding the site's policy (bundle.ts), so islands in the
// browser link as the server rendered them.
import type { UrlPolicy } from './urls.ts';

export const initialPolicy: UrlPolicy | null = null;

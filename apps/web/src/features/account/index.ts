/** What the account feature offers the rest of the app; everything else in the folder is its own. */
import './account.css';
export { loginPathFor } from './auth-redirect.ts';
export { useLoginFirst } from './use-login-first.ts';
export { useSignOut } from './use-sign-out.ts';

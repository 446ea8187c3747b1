// Placeholder: the page's script (web-page replaces it). It imports a module the server rewrites.
import { greet } from './hello.js';

document.getElementById('app')?.setAttribute('data-ready', greet());

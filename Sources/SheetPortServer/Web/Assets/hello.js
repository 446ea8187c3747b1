// Placeholder module, imported by app.js (web-page replaces it).
export function greet() { return 'yes'; }

/** Stylesheets are bundled by Vite; importing one only adds it to the page. */
declare module "*.css" {}

/**
 * Product images (spec §4 "Image upload"): the path a client keeps in the
 * calculator form and a project stores is the image's address,
 * `/images/product/<random hex>`. Browser-safe.
 */
const PRODUCT_PATH = /^\/images\/(product\/[0-9a-f]{32})$/;

/** The storage key of a product image path, or null when the text is not one. */
export function productImageKey(path: string | null | undefined): string | null {
  const match = path ? PRODUCT_PATH.exec(path) : null;
  return match ? match[1] : null;
}

export function productImagePath(key: string): string {
  return `/images/${key}`;
}

/** Where the browser loads it (served only to the project's owner, see services/image-access.server.ts). */
export function productImageUrl(path: string): string | null {
  return productImageKey(path) ? path : null;
}

// Where a stored image is served (src/http/routes/images.ts): by its hash, so the URL never changes meaning.
export const IMAGES_PATH = '/api/images';

export const imageUrl = (hash: string) => `${IMAGES_PATH}/${hash}`;

/** Saves a file the page holds as an object URL, through a temporary link (the calls need the bearer header). */
export function saveObjectUrl(objectUrl: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a downloaded file; its object URL goes later, because some browsers read the blob after click() returns. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  saveObjectUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

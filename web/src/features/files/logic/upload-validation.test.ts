import { MAX_UPLOAD_BYTES, mergeSelection, validateFile } from './upload-validation.js';

const f = (name: string, size = 1000) => ({ name, size });

describe('validateFile', () => {
  it('accepts the four types in any case', () => {
    for (const name of ['a.pdf', 'b.PNG', 'c.Jpg', 'd.JPEG']) expect(validateFile(f(name))).toBeNull();
  });
  it('rejects other types and names without extension', () => {
    expect(validateFile(f('scan.tiff'))).toBe('Invalid file type. Please select: .pdf, .png, .jpg, .jpeg');
    expect(validateFile(f('pdf'))).toBe('Invalid file type. Please select: .pdf, .png, .jpg, .jpeg');
  });
  it('rejects files over 10 MB but accepts exactly 10 MB', () => {
    expect(validateFile(f('big.pdf', MAX_UPLOAD_BYTES))).toBeNull();
    expect(validateFile(f('big.pdf', MAX_UPLOAD_BYTES + 1))).toBe('File too large. Maximum size: 10 MB');
  });
});

describe('mergeSelection', () => {
  it('keeps valid files, reports invalid ones by name', () => {
    const { files, errors } = mergeSelection(
      [],
      [f('a.pdf'), f('notes.txt'), f('b.png', MAX_UPLOAD_BYTES * 2)],
    );
    expect(files.map((x) => x.name)).toEqual(['a.pdf']);
    expect(errors).toEqual([
      { name: 'notes.txt', message: 'Invalid file type. Please select: .pdf, .png, .jpg, .jpeg' },
      { name: 'b.png', message: 'File too large. Maximum size: 10 MB' },
    ]);
  });
  it('replaces a file with the same name in place', () => {
    const first = f('a.pdf', 1);
    const second = f('b.pdf', 2);
    const replacement = f('a.pdf', 3);
    const { files } = mergeSelection([first, second], [replacement, f('c.jpg')]);
    expect(files).toEqual([replacement, second, f('c.jpg')]);
  });
});

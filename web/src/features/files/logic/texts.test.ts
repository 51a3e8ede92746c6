import {
  countBadge,
  filesReady,
  filesSelectedHeading,
  insufficientCreditsText,
  invalidTypeText,
  restoreConfirmText,
  selectAllLabel,
  uploadButton,
  uploadCompleteText,
  uploadingLabel,
} from './texts.js';

describe('spec texts', () => {
  it('words the restoration confirmation as the spec does', () => {
    expect(restoreConfirmText(1, 1)).toBe(
      'You are about to restore 1 file(s). This will cost 1 credit(s). Do you want to proceed?',
    );
    expect(restoreConfirmText(2, 7)).toBe(
      'You are about to restore 2 file(s). This will cost 7 credit(s). Do you want to proceed?',
    );
  });
  it('words the insufficient credits message as the spec does', () => {
    expect(insufficientCreditsText(5, 2)).toBe(
      'You need 5 credit(s) but only have 2. Please purchase more credits to continue.',
    );
  });
  it('labels the select-all toggle by how much is selected', () => {
    expect(selectAllLabel(0, 4)).toBe('Select All');
    expect(selectAllLabel(2, 4)).toBe('Select All (2 of 4 selected)');
    expect(selectAllLabel(4, 4)).toBe('Deselect All');
    expect(selectAllLabel(0, 0)).toBe('Select All');
  });
  it('counts files and uploads', () => {
    expect(countBadge(1)).toBe('1 file');
    expect(countBadge(0)).toBe('0 files');
    expect(filesSelectedHeading(1)).toBe('File Selected');
    expect(filesSelectedHeading(3)).toBe('3 Files Selected');
    expect(filesReady(1)).toBe('1 file(s) ready for upload');
    expect(filesReady(2)).toBe('2 file(s) ready for upload');
    expect(uploadButton(1)).toBe('Upload File');
    expect(uploadButton(2)).toBe('Upload 2 Files');
    expect(uploadingLabel(1)).toBe('Uploading file...');
    expect(uploadingLabel(3)).toBe('Uploading 3 files...');
    expect(uploadCompleteText(1)).toBe('Your file has been uploaded successfully');
    expect(uploadCompleteText(4)).toBe('All 4 files have been uploaded successfully');
  });
  it('lists the allowed extensions', () => {
    expect(invalidTypeText()).toBe('Invalid file type. Please select: .pdf, .png, .jpg, .jpeg');
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './ConfirmDialog.js';

function setup(variant?: 'danger') {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog
      title="Delete file?"
      message={'"scan.pdf" will be deleted. This action cannot be undone.'}
      variant={variant}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  return { onConfirm, onCancel };
}

describe('ConfirmDialog', () => {
  it('is a labelled dialog that highlights quoted names', () => {
    setup('danger');
    const dialog = screen.getByRole('dialog', { name: 'Delete file?' });
    expect(dialog).toHaveAccessibleDescription('"scan.pdf" will be deleted. This action cannot be undone.');
    expect(screen.getByText('"scan.pdf"').tagName).toBe('STRONG');
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus();
  });

  it('confirms on Enter', async () => {
    const { onConfirm, onCancel } = setup();
    await userEvent.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('labels the default variant Confirm and cancels on Cancel, Escape and the backdrop', async () => {
    const { onConfirm, onCancel } = setup();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByTestId('dialog-backdrop'));
    expect(onCancel).toHaveBeenCalledTimes(3);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('Enter on the focused Cancel button cancels instead of confirming', async () => {
    const { onConfirm, onCancel } = setup();
    screen.getByRole('button', { name: 'Cancel' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

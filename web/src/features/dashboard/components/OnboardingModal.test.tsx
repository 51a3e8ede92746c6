import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OnboardingModal, isOnboardingDone } from './OnboardingModal.js';

describe('OnboardingModal', () => {
  it('walks three steps with progress and highlights, then remembers completion', async () => {
    const onHighlight = vi.fn();
    render(<OnboardingModal onHighlight={onHighlight} />);
    expect(screen.getByRole('dialog', { name: 'Upload Your Documents' })).toBeInTheDocument();
    expect(screen.getByText('Drag & drop PDF or image files to upload.')).toBeInTheDocument();
    expect(screen.getByText('33%')).toBeInTheDocument();
    expect(onHighlight).toHaveBeenLastCalledWith('upload');
    expect(screen.queryByRole('button', { name: 'Previous' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(
      screen.getByRole('dialog', { name: 'View Your Original Files & start restoring' }),
    ).toBeInTheDocument();
    expect(screen.getByText('67%')).toBeInTheDocument();
    expect(onHighlight).toHaveBeenLastCalledWith('originals');

    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('33%')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Download enhanced documents. Stored for 30 days.')).toBeInTheDocument();
    expect(screen.getByText('100%')).toBeInTheDocument();
    expect(onHighlight).toHaveBeenLastCalledWith('restored');
    expect(isOnboardingDone()).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onHighlight).toHaveBeenLastCalledWith(null);
    expect(isOnboardingDone()).toBe(true);
  });

  it.each([
    ['Escape', async () => userEvent.keyboard('{Escape}')],
    ['the backdrop', async () => userEvent.click(screen.getByTestId('dialog-backdrop'))],
    ['Skip', async () => userEvent.click(screen.getByRole('button', { name: 'Skip' }))],
  ])('%s dismisses it and marks it done', async (_name, dismiss) => {
    render(<OnboardingModal onHighlight={() => undefined} />);
    await dismiss();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(isOnboardingDone()).toBe(true);
  });

  it('is not shown once completed', () => {
    window.localStorage.setItem('folio_onboarding_done', 'true');
    render(<OnboardingModal onHighlight={() => undefined} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

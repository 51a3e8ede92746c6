import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationStore, notify } from '../../lib/notifications.js';
import { NotificationBanner } from './NotificationBanner.js';

describe('notification banner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    notificationStore.setState(null);
  });
  afterEach(() => vi.useRealTimers());

  it.each(['success', 'warning', 'info'] as const)(
    'auto-hides a %s notice after 5000 ms with a 300 ms fade',
    (type) => {
      render(<NotificationBanner />);
      act(() => {
        notify('Saved', type);
      });
      expect(screen.getByTestId('notification')).toHaveClass('opacity-100');
      act(() => {
        vi.advanceTimersByTime(4999);
      });
      expect(screen.getByTestId('notification')).toHaveClass('opacity-100');
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(screen.getByTestId('notification')).toHaveClass('opacity-0');
      act(() => {
        vi.advanceTimersByTime(299);
      });
      expect(screen.getByTestId('notification')).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(screen.queryByTestId('notification')).toBeNull();
    },
  );

  it('keeps a sticky warning (connection lost) until another notice replaces it', () => {
    render(<NotificationBanner />);
    act(() => {
      notify('Connection lost. Attempting to reconnect...', 'warning', { sticky: true });
    });
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('notification')).toHaveClass('opacity-100');
    act(() => {
      notify('Reconnected to server successfully.', 'success');
    });
    expect(screen.getByTestId('notification')).toHaveTextContent('Reconnected to server successfully.');
  });

  it('keeps errors until closed', async () => {
    vi.useRealTimers();
    render(<NotificationBanner />);
    act(() => {
      notify('Broken');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
    vi.useFakeTimers();
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByRole('alert')).toHaveClass('opacity-100');
    vi.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.getByRole('alert')).toHaveClass('opacity-0');
  });

  it('a new notice replaces the old one and restarts its timer', () => {
    notify('first', 'success');
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    notify('second', 'info');
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(notificationStore.getState()).toMatchObject({ message: 'second', isVisible: true });
  });
});

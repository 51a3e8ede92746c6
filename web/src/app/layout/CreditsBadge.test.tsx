import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selectionCostStore } from '../../stores/selection-cost.js';
import { CreditsBadge } from './CreditsBadge.js';

describe('credits badge', () => {
  afterEach(() => {
    vi.useRealTimers();
    act(() => selectionCostStore.setState(null));
  });

  it('pulses for 400 ms when the balance drops, not when it rises', () => {
    vi.useFakeTimers();
    const { rerender } = render(<CreditsBadge credits={10} />);
    const badge = screen.getByTestId('credits-balance');
    expect(badge).toHaveAttribute('data-pulse', 'false');
    rerender(<CreditsBadge credits={12} />);
    expect(badge).toHaveAttribute('data-pulse', 'false');
    rerender(<CreditsBadge credits={9} />);
    expect(badge).toHaveAttribute('data-pulse', 'true');
    act(() => {
      vi.advanceTimersByTime(399);
    });
    expect(badge).toHaveAttribute('data-pulse', 'true');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(badge).toHaveAttribute('data-pulse', 'false');
  });

  it('shows the selection cost: orange within the balance, red above it', () => {
    render(<CreditsBadge credits={5} />);
    expect(screen.queryByTestId('selection-cost')).toBeNull();
    act(() => selectionCostStore.setState(5));
    expect(screen.getByTestId('selection-cost')).toHaveClass('bg-orange-700');
    act(() => selectionCostStore.setState(6));
    expect(screen.getByTestId('selection-cost')).toHaveClass('bg-red-600');
  });
});

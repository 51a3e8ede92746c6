import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { dto } from '../logic/fixtures.test-util.js';
import { fromDto, type FileItem, type FileKind } from '../logic/model.js';
import type { AsyncStatus } from '../logic/file-state.js';
import { FileListCard } from './FileListCard.js';

const files: FileItem[] = [
  fromDto(
    dto({
      id: 'a',
      filename: 'letter.pdf',
      status: 'processed',
      page_count: 3,
      credit_cost: 3,
      days_remaining: 31,
    }),
  ),
  fromDto(
    dto({
      id: 'b',
      filename: 'photo.png',
      file_type: 'png',
      page_count: 1,
      credit_cost: 1,
      days_remaining: 0,
      size_bytes: 1536,
    }),
  ),
];

function Harness({ list = files, status = 'success' as AsyncStatus, kind = 'original' as FileKind }) {
  const [selected, setSelected] = useState<string[]>([]);
  const onDownload = vi.fn();
  return (
    <FileListCard
      kind={kind}
      title={kind === 'original' ? 'Original Files' : 'Restored Files'}
      files={list}
      selectedIds={selected}
      listStatus={status}
      listError="Failed to list files"
      expanded
      onExpandedChange={() => undefined}
      onToggle={(_k, id) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]))}
      onSelectAll={() => setSelected(list.map((f) => f.id))}
      onClear={() => setSelected([])}
      onDownload={onDownload}
      onDelete={() => undefined}
      onDownloadSelected={() => undefined}
      onDeleteSelected={() => undefined}
    />
  );
}

describe('FileListCard', () => {
  it('shows count, badges and the credit cost of each original', () => {
    render(<Harness />);
    expect(screen.getByText('2 files')).toBeInTheDocument();
    const card = screen.getAllByTestId('file-card')[0] as HTMLElement;
    expect(within(card).getByText('Processed')).toBeInTheDocument();
    expect(within(card).getByText('PDF')).toBeInTheDocument();
    expect(within(card).getByText('3p')).toBeInTheDocument();
    expect(within(card).getByText('31d left')).toBeInTheDocument();
    expect(within(card).getByText('3 credits')).toBeInTheDocument();
    const second = screen.getAllByTestId('file-card')[1] as HTMLElement;
    expect(within(second).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(second).getAllByText('Expires today')).toHaveLength(2);
    expect(within(second).getByText('1 credit')).toBeInTheDocument();
  });

  it('toggles selection by clicking the card and walks the select-all labels', async () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Select All' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('letter.pdf').closest('article') as HTMLElement);
    expect(screen.getByRole('button', { name: 'Select All (1 of 2 selected)' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select letter.pdf' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Select All (1 of 2 selected)' }));
    expect(screen.getByRole('button', { name: 'Deselect All' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByRole('button', { name: 'Select All' })).toBeInTheDocument();
  });

  it('selects with the keyboard through the card checkbox; actions do not toggle', async () => {
    render(<Harness />);
    screen.getByRole('checkbox', { name: 'Select photo.png' }).focus();
    await userEvent.keyboard(' ');
    expect(screen.getByRole('checkbox', { name: 'Select photo.png' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Download letter.pdf' }));
    expect(screen.getByRole('checkbox', { name: 'Select letter.pdf' })).not.toBeChecked();
  });

  it('shows the loading, error and empty texts', () => {
    const { rerender } = render(<Harness list={[]} status="loading" />);
    expect(screen.getByText('Loading files...')).toBeInTheDocument();
    rerender(<Harness list={[]} status="error" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to list files');
    rerender(<Harness list={[]} />);
    expect(screen.getByText('No files available yet.')).toBeInTheDocument();
    rerender(<Harness list={[]} kind="restored" />);
    expect(screen.getByText('No restored files yet')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Select files from your uploaded documents and click "AI Restoration" to get started.',
      ),
    ).toBeInTheDocument();
  });

  it('previews: pending files say Generating preview…, finished ones without preview say No preview available', () => {
    render(
      <Harness
        list={[fromDto(dto({ id: 'p', status: 'uploaded' })), fromDto(dto({ id: 'q', status: 'processed' }))]}
      />,
    );
    expect(screen.getByText('Generating preview…')).toBeInTheDocument();
    expect(screen.getByText('No preview available')).toBeInTheDocument();
  });
});

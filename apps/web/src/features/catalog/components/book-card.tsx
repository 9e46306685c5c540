import { Link } from 'react-router';
import type { BookSummary } from '@guji/shared';
import { BookCover } from '../../../components/book-cover.tsx';
import { BookText } from '../../../components/book-text.tsx';

/** A hot-browse card: cover, title and author, the whole card linking to the book's detail page. */
export function BookCard({ book }: { book: BookSummary }) {
  return (
    <Link to={`/SearchPage/${book.catalogId}`} className="book-card">
      <BookCover title={book.title} coverUrl={book.coverUrl} width={160} height={160} />
      <BookText className="book-card-title">{book.title}</BookText>
      {book.author ? (
        <BookText className="book-card-author">{book.author}</BookText>
      ) : (
        <span className="book-card-author">佚名</span>
      )}
    </Link>
  );
}

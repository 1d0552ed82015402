"""Text, JSON, CSV and Parquet output, and the Markdown/HTML reports with their figures."""
